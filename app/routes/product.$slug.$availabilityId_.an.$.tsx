import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { productForParams } from "~/app/lib/store/product.server";

/** A product link with the add action's /an/ segment (server/store/links.ts) opens the product's own page. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const { availability } = await productForParams(params);
  throw redirect(`${availability.url}${new URL(request.url).search}`, 301);
}

// The loader always redirects or throws; a component makes this a page route, so a 404 renders inside the site's chrome.
export default function Redirecting() {
  return null;
}
