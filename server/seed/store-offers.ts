import type { Transaction } from "kysely";
import type { DB } from "~/server/db/schema";
import type { SeedStore } from "./content-source";

/**
 * Promo codes and vouchers from store.json. A seed step of its own (not part of the content
 * step) so that databases seeded before the store had offers get them too.
 */
export async function seedStoreOffers(tx: Transaction<DB>, store: SeedStore): Promise<void> {
  if (store.promoCodes.length > 0) {
    await tx
      .insertInto("promo_code")
      .values(
        store.promoCodes.map((p) => ({
          code: p.code,
          description: p.description,
          percent_off: p.percentOff ?? null,
          amount_off_cents: p.amountOff === undefined ? null : Math.round(p.amountOff * 100),
          product_type: p.productType ?? null,
          starts_at: `${p.starts}T00:00:00.000Z`,
          // An expiry date is the last day the code works.
          expires_at: p.expires ? `${p.expires}T23:59:59.999Z` : null,
        })),
      )
      .execute();
  }
  for (const v of store.vouchers) {
    const availability = await tx
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select("a.id")
      .where("p.slug", "=", v.product)
      .where("a.code", "=", v.formatCode)
      .orderBy("a.id")
      .executeTakeFirst();
    if (!availability) throw new Error(`store.json: voucher ${v.code} names no ${v.formatCode} of ${v.product}`);
    await tx
      .insertInto("voucher")
      .values({ code: v.code, availability_id: availability.id, redeemed_by: null, redeemed_at: null, order_id: null })
      .execute();
  }
}
