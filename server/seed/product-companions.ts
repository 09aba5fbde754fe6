import type { Transaction } from "kysely";
import type { DB } from "~/server/db/schema";
import type { SeedStore } from "./content-source";

/**
 * The "Better together" pairings of store.json. A seed step of its own (not part of the content
 * step) so that databases seeded before the store had them get them too.
 */
export async function seedProductCompanions(tx: Transaction<DB>, store: SeedStore): Promise<void> {
  const ids = new Map((await tx.selectFrom("product").select(["id", "slug"]).execute()).map((p) => [p.slug, p.id]));
  const rows = store.products.flatMap((p) =>
    (p.betterTogether ?? []).map((slug, position) => {
      const productId = ids.get(p.slug);
      const companionId = ids.get(slug);
      if (productId === undefined || companionId === undefined || slug === p.slug)
        throw new Error(`store.json: ${p.slug} cannot go together with "${slug}"`);
      return { product_id: productId, position, companion_id: companionId };
    }),
  );
  if (rows.length > 0) await tx.insertInto("product_companion").values(rows).execute();
}
