import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { productById } from "~/server/store/catalogue";
import { leadAvailability } from "~/shared/product-types";
import { db } from "~/app/lib/context/db.server";

/** The short form /product/{id}: moved to the product's page for its first availability on sale (the query goes along). */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const product = /^\d{1,9}$/.test(params.id ?? "") ? await productById(await db(), Number(params.id)) : undefined;
  const lead = product && leadAvailability(product.availabilities);
  if (!lead) throw new Response(null, { status: 404 });
  throw redirect(`${lead.url}${new URL(request.url).search}`, 301);
}

// The loader always redirects or throws; a component makes this a page route, so a 404 renders inside the site's chrome.
export default function Redirecting() {
  return null;
}
