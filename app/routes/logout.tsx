import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, useLoaderData } from "@remix-run/react";
import { isCrossSite } from "~/server/http/cross-site";
import { primaryButton } from "~/app/components/controls.css";
import * as prose from "~/app/components/prose.css";
import { apiError } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { endCurrentSession } from "~/app/lib/context/session.server";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";

// Spec: GET /logout[?return={path}], also documented in the service API (app/lib/api/groups/
// auth-user.ts); the user menu posts to the same address. A GET signs out
// only when it comes from this site, so another site cannot sign a reader out with a link or
// an image; any other GET shows a "Sign out" button instead.

function returnPath(request: Request): string {
  return safeRedirectPath(new URL(request.url).searchParams.get("return"));
}

/** Ends the session on the server, clears the cookie, and goes to the safe `return` path. */
async function signOut({ request, context }: RequestArgs) {
  return redirect(returnPath(request), {
    status: 303,
    headers: { "Set-Cookie": await endCurrentSession(requestContext({ request, context })) },
  });
}

/**
 * A GET this site started: Sec-Fetch-Site same-origin, or none (the reader's own address bar or
 * bookmark). A browser that sends no Sec-Fetch-Site must show a Referer from this site; with
 * neither, the reader gets the button, which costs one click and is never wrong.
 */
function startedHere(request: Request): boolean {
  const ownOrigins = [new URL(config().siteUrl).origin, new URL(request.url).origin];
  if (request.headers.get("Sec-Fetch-Site")) return !isCrossSite(request.headers, ownOrigins);
  const referer = URL.canParse(request.headers.get("Referer") ?? "") ? new URL(request.headers.get("Referer")!).origin : undefined;
  return referer !== undefined && ownOrigins.includes(referer);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (startedHere(request)) return signOut({ request, context });
  return { back: returnPath(request) };
}

export function action({ request, context }: ActionFunctionArgs) {
  // The service API documents GET /logout (app/lib/api/groups/auth-user.ts): other methods get its JSON 405.
  if (request.method !== "POST")
    return apiError(405, "method_not_allowed", `${request.method} is not allowed here.`, {}, { Allow: "GET, HEAD, POST" });
  refuseCrossSite(request);
  return signOut({ request, context });
}

export const meta: MetaFunction = () => [{ title: "Sign out | Meridian Review" }, { name: "robots", content: "noindex" }];

export default function SignOut() {
  const { back } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Sign out</h1>
      <p>Do you want to sign out of Meridian Review?</p>
      <Form method="post" action={`/logout?${new URLSearchParams({ return: back })}`}>
        <button type="submit" className={primaryButton}>
          Sign out
        </button>
      </Form>
    </div>
  );
}
