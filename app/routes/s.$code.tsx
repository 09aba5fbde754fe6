import type { LoaderFunctionArgs } from "@remix-run/node";
import { shortLinkPath } from "~/server/share/short-links";
import { db } from "~/app/lib/context/db.server";
import { redirect } from "~/app/lib/http/responses.server";

/** GET /s/{code}: a short link (service API integration/url/shorten) leads to its page on this site. */
export async function loader({ params }: LoaderFunctionArgs) {
  const path = await shortLinkPath(await db(), params.code ?? "");
  if (!path) throw new Response(null, { status: 404 });
  return redirect(path, 301);
}

// An unknown code shows the site's 404 page.
export default function ShortLink() {
  return null;
}
