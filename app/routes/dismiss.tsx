import { data, type ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { dismiss, isDismissible } from "~/server/readers/dismissals";
import { userKey, visitorKey } from "~/server/readers/keys";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { requestContext } from "~/app/lib/context/request-context.server";

/**
 * Closes a help box, the onboarding overlay or the persistent banner for good: remembered for
 * the account, or for a guest's visitor id. A plain form post that comes back to the page; with
 * JS the same form posts through a fetcher.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const item = form.get("item");
  if (!isDismissible(item)) throw new Response("Unknown message", { status: 400 });
  const user = await requestContext({ request, context }).user();
  const headers = new Headers();
  let owner: string;
  if (user) {
    owner = userKey(user.id);
  } else {
    const visitor = await requestContext({ request, context }).visitor();
    if (visitor.setCookie) headers.append("Set-Cookie", visitor.setCookie);
    owner = visitorKey(visitor.id);
  }
  await dismiss(await db(), owner, item);
  if (sentByFetcher(form)) return data({ dismissed: item }, { headers });
  return redirect(safeRedirectPath(form.get("redirectTo")), { status: 303, headers });
}

export function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
}

// A page route, not a resource route, so a refusal (cross-site, 405) is a page inside the site.
export { ErrorBoundary } from "~/app/root";
