import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { refuseCrossSite } from "../lib/form-guard.server";
import { safeRedirectPath } from "../lib/redirects";
import { endCurrentSession } from "../lib/session.server";

/** Ends the session on the server, clears the cookie, and goes to the safe `return` path. */
async function signOut(request: Request) {
  const back = safeRedirectPath(new URL(request.url).searchParams.get("return"));
  return redirect(back, { status: 303, headers: { "Set-Cookie": await endCurrentSession(request) } });
}

// Spec: GET /logout?return={path}; the user menu posts to the same address.
export const loader = ({ request }: LoaderFunctionArgs) => signOut(request);

export function action({ request }: ActionFunctionArgs) {
  refuseCrossSite(request);
  return signOut(request);
}
