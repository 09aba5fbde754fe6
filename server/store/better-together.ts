import type { Database } from "~/server/db/connection";
import { productCoverPath, productPath } from "~/shared/urls";
import type { ImageSources } from "~/shared/uploaded-images";
import { coverOf, type Availability, type ProductPage } from "./catalogue";
import { priceInForce } from "./prices";

/** One product of a "Better together" offer, in the format that is added. */
export interface TogetherItem {
  availabilityId: number;
  title: string;
  productType: string;
  format: string;
  priceCents: number;
  url: string;
  cover: string;
  /** An uploaded cover shown instead of the drawn one (ADR 091). */
  coverPicture: ImageSources | null;
  /** The product of the page the offer is on. */
  current: boolean;
}

/**
 * "Better together" on a product page (spec section 9): the format the page shows, then each
 * companion an editor paired with the product, in its first format on sale. None when the
 * page's own format is not on sale, or no companion is.
 */
export async function betterTogether(db: Database, product: ProductPage, shown: Availability, now = new Date()): Promise<TogetherItem[]> {
  if (shown.comingSoon || shown.retired) return [];
  const rows = await db
    .selectFrom("product_companion as c")
    .innerJoin("product as p", "p.id", "c.companion_id")
    .innerJoin("product_availability as a", "a.product_id", "p.id")
    .leftJoin("image as cover", "cover.id", "p.cover_image_id")
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height", "cover.alt as cover_alt"])
    .select(["p.id as product_id", "p.slug", "p.title", "p.product_type", "a.id", "a.format", priceInForce("a", now).as("price_cents")])
    .where("c.product_id", "=", product.id)
    .where("a.status", "=", "A")
    .orderBy("c.position")
    .orderBy("a.id")
    .execute();
  const seen = new Set<number>();
  const companions: TogetherItem[] = [];
  for (const r of rows) {
    if (seen.has(r.product_id)) continue;
    seen.add(r.product_id);
    companions.push({
      availabilityId: r.id,
      title: r.title,
      productType: r.product_type,
      format: r.format,
      priceCents: Number(r.price_cents),
      url: productPath({ slug: r.slug, availabilityId: r.id }),
      cover: productCoverPath(r.slug),
      coverPicture: coverOf(r),
      current: false,
    });
  }
  if (companions.length === 0) return [];
  return [
    {
      availabilityId: shown.id,
      title: product.title,
      productType: product.productType,
      format: shown.format,
      priceCents: shown.listPriceCents,
      url: shown.url,
      cover: productCoverPath(product.slug),
      coverPicture: product.coverPicture,
      current: true,
    },
    ...companions,
  ];
}
