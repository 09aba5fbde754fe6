import type { LoaderFunctionArgs } from "@remix-run/node";
import { productCover } from "../../server/art";
import { productBySlug } from "../../server/store/catalogue";
import { db } from "../lib/db.server";
import { svgResponse, withSecurityHeaders } from "../lib/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const slug = (params.file ?? "").replace(/\.svg$/, "");
  const product = /^[a-z0-9-]{1,120}$/.test(slug) ? await productBySlug(await db(), slug) : undefined;
  if (!product) throw new Response("Not found", { status: 404 });
  return svgResponse(productCover(product));
});
