import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { textSizeCookie } from "~/app/lib/accounts/preferences.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const size = form.get("size") === "large" ? "large" : "standard";
  return redirect(safeRedirectPath(form.get("redirectTo")), {
    status: 303,
    headers: { "Set-Cookie": await textSizeCookie.serialize(size) },
  });
}

export function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
}

// A page route, not a resource route, so a refusal (cross-site, 405) is a page inside the site.
export { ErrorBoundary } from "~/app/root";
