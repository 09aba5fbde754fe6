import { productBySlug } from "~/server/store/catalogue";
import { db } from "~/app/lib/context/db.server";

/**
 * The product and availability a /product/{slug}/{availabilityId} address names. Anything
 * else is a 404: a malformed slug or id, an unknown slug, or an availability of another product.
 */
export async function productForParams(params: { slug?: string; availabilityId?: string }) {
  const { slug = "", availabilityId = "" } = params;
  if (!/^[a-z0-9-]{1,120}$/.test(slug) || !/^\d{1,9}$/.test(availabilityId)) throw new Response(null, { status: 404 });
  const product = await productBySlug(await db(), slug);
  const availability = product?.availabilities.find((a) => a.id === Number(availabilityId));
  if (!product || !availability) throw new Response(null, { status: 404 });
  return { product, availability };
}
