import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isFollowing, unfollow } from "~/server/library/follows";
import { unsubscribeLinkTarget } from "~/server/newsletters/unsubscribe-token";
import { secrets } from "~/server/secrets";
import { primaryButton } from "~/app/components/controls.css";
import * as prose from "~/app/components/prose.css";
import { db } from "~/app/lib/context/db.server";
import { refuseCrossSite } from "~/app/lib/forms/guard.server";
import { readFormBody } from "~/app/lib/forms/read-body.server";

// The unsubscribe link of a newsletter e-mail: /newsletters/unsubscribe?token=… GET asks, POST
// unsubscribes (idempotent). The token alone authorises it, no sign-in. A mail client's RFC 8058
// one-click POST (body "List-Unsubscribe=One-Click", no Origin, no cookies) is accepted from
// anywhere; every other post must be same-site like the rest of the site's forms.

export const INVALID_LINK =
  "This unsubscribe link is not valid. Please use the link in the latest e-mail, or manage your newsletters on the Email Newsletters page.";
const MAX_BODY = 4096;
/** The one-click body, or the page's button: a token and a field or two. */
const MAX_FIELDS = 8;

type Resolved = { state: "invalid" } | { state: "ok"; userId: string; slug: string; name: string; token: string };

async function resolve(token: string | null): Promise<Resolved> {
  const found = token ? await unsubscribeLinkTarget(await db(), secrets().sessionSecret, token) : undefined;
  if (!found || !token) return { state: "invalid" };
  return { state: "ok", ...found, token };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const found = await resolve(params.get("token"));
  if (found.state === "invalid") return data({ state: "invalid" as const }, { status: 400, headers: { "Cache-Control": "no-store" } });
  const subscribed = await isFollowing(await db(), found.userId, "newsletter", found.slug);
  return data(
    {
      state: subscribed ? ("confirm" as const) : params.get("done") === "1" ? ("done" as const) : ("not-subscribed" as const),
      name: found.name,
      token: found.token,
    },
    { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormBody(request, { maxBytes: MAX_BODY, maxFields: MAX_FIELDS });
  if (form === "too-large" || form === "too-many-fields") throw new Response("Form too large", { status: 413 });
  if (form === "unreadable") throw new Response("Form could not be read", { status: 400 });
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  if (!oneClick) refuseCrossSite(request);
  const token = new URL(request.url).searchParams.get("token") ?? form.get("token");
  const found = await resolve(typeof token === "string" ? token : null);
  if (found.state === "invalid") {
    return data({ unsubscribed: null }, { status: 400 });
  }
  await unfollow(await db(), found.userId, "newsletter", found.slug);
  // A mail client gets its answer here; a reader's browser goes on to the confirmation page.
  if (oneClick) return data({ unsubscribed: found.name });
  return redirect(`/newsletters/unsubscribe?${new URLSearchParams({ token: found.token, done: "1" })}`, 303);
}

export const meta: MetaFunction = () => [{ title: "Unsubscribe | Meridian Review" }, { name: "robots", content: "noindex" }];

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>()?.unsubscribed;
  const d = done ? { state: "done" as const, name: done } : loaded;
  return (
    <div className={prose.narrow}>
      {d.state === "invalid" ? (
        <>
          <h1>Unsubscribe</h1>
          <p role="alert">{INVALID_LINK}</p>
        </>
      ) : d.state === "confirm" ? (
        <>
          <h1>Unsubscribe from {d.name}?</h1>
          <p>You will stop receiving {d.name} at the address we send it to.</p>
          <Form method="post" action={`/newsletters/unsubscribe?${new URLSearchParams({ token: d.token })}`}>
            <input type="hidden" name="token" value={d.token} />
            <button type="submit" className={primaryButton}>
              Unsubscribe
            </button>
          </Form>
        </>
      ) : (
        <>
          <h1>Unsubscribe</h1>
          <p role="status">{d.state === "done" ? `You have been unsubscribed from ${d.name}.` : `You are not subscribed to ${d.name}.`}</p>
        </>
      )}
      <p>
        <Link to="/email-newsletters">Manage all your newsletters</Link>
      </p>
    </div>
  );
}
