import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { addedItems } from "~/server/store/added-item";
import { addToCart, createCart } from "~/server/store/cart";
import { recommendationsFor } from "~/server/store/catalogue";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

const productBySlug = (slug: string) =>
  db.selectFrom("product").select(["id", "topic_id"]).where("slug", "=", slug).executeTakeFirstOrThrow();

describe("recommendations for the add-to-cart confirmation", () => {
  it("puts products on the same topic first, never the product itself, and only what is on sale", async () => {
    const reprint = await productBySlug("the-hidden-cost-of-consensus");
    const picks = await recommendationsFor(db, reprint.id, 4);
    expect(picks).toHaveLength(4);
    expect(picks.map((p) => p.id)).not.toContain(reprint.id);
    const sameTopic = await db
      .selectFrom("product")
      .select("id")
      .where("topic_id", "=", reprint.topic_id)
      .where("id", "!=", reprint.id)
      .execute();
    expect(sameTopic.length).toBeGreaterThan(0);
    expect(
      picks
        .slice(0, sameTopic.length)
        .map((p) => p.id)
        .sort(),
    ).toEqual(sameTopic.map((p) => p.id).sort());

    const comingSoon = await db.selectFrom("product_availability").select("product_id").where("status", "=", "F").execute();
    const onlyComingSoon = new Set(comingSoon.map((r) => r.product_id));
    for (const r of await db.selectFrom("product_availability").select("product_id").where("status", "=", "A").execute())
      onlyComingSoon.delete(r.product_id);
    const everything = await recommendationsFor(db, reprint.id, 100);
    expect(everything.some((p) => onlyComingSoon.has(p.id))).toBe(false);
    // Each product once, shown in its first format on sale, linking to that format's page.
    expect(new Set(everything.map((p) => p.id)).size).toBe(everything.length);
    for (const p of everything) expect(p.url).toMatch(/^\/product\/[a-z0-9-]+\/\d+$/);
  });
});

describe("the added-to-cart item", () => {
  it("describes a line of the cart with its subject and publication date, and nothing for another cart's line", async () => {
    const cart = await createCart(db, null);
    const other = await createCart(db, null);
    const ledger = await db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.id", "p.published"])
      .where("p.slug", "=", "the-patient-ledger")
      .where("a.code", "=", "HBK")
      .executeTakeFirstOrThrow();
    const added = await addToCart(db, cart, { availabilityId: ledger.id, type: "Ship", quantity: 2, referral: null });
    if (!added.ok) throw new Error("setup");
    expect(await addedItems(db, cart, [added.lineId])).toMatchObject([
      {
        topic: "Finance & Accounting",
        publicationDate: ledger.published,
        line: { availabilityId: ledger.id, quantity: 2, format: "Hardcover", type: "Ship" },
      },
    ]);
    expect(await addedItems(db, other, [added.lineId])).toBeNull();
  });
});
