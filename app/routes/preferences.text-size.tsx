import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { textSizeCookie } from "../lib/preferences.server";
import { safeRedirectPath } from "../lib/redirects";

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const size = form.get("size") === "large" ? "large" : "standard";
  return redirect(safeRedirectPath(form.get("redirectTo")), {
    status: 303,
    headers: { "Set-Cookie": await textSizeCookie.serialize(size) },
  });
}

export function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
}
