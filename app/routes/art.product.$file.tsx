import type { LoaderFunctionArgs } from "@remix-run/node";
import { productCover, productCoverPng } from "~/server/images/art";
import { productBySlug } from "~/server/store/catalogue";
import { db } from "~/app/lib/context/db.server";
import { pngResponse, svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

/** A product's cover: SVG for the site's pages, PNG for its structured data. */
export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.(svg|png)$/.exec(params.file ?? "");
  const product = match ? await productBySlug(await db(), match[1]!) : undefined;
  if (!product) throw new Response("Not found", { status: 404 });
  return match![2] === "png" ? pngResponse(await productCoverPng(product)) : svgResponse(productCover(product));
});
