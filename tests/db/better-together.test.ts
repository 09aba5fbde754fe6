import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { betterTogether } from "~/server/store/better-together";
import { addAllToCart, addToCart, createCart, readCart } from "~/server/store/cart";
import { productBySlug } from "~/server/store/catalogue";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// "Better together" (spec section 9): which products a product page offers with it, and adding
// the checked ones in one go.

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function offer(slug: string, code?: string) {
  const product = (await productBySlug(db, slug))!;
  const shown = code ? product.availabilities.find((a) => a.code === code)! : product.availabilities[0]!;
  return { shown, items: await betterTogether(db, product, shown) };
}

const item = (availabilityId: number) => ({ availabilityId, kind: "item" as const, quantity: 1, referral: null });

describe("the products a page offers together", () => {
  it("are the format shown, then the editor's pairings in order, each in its first format on sale", async () => {
    const { shown, items } = await offer("the-patient-ledger", "KND");
    expect(items.map((i) => [i.title.split(":")[0], i.format, i.current])).toEqual([
      ["The Patient Ledger", "Ebook", true],
      ["Brightwater Utilities", "PDF", false],
      ["Scenario Planning Toolkit", "Spreadsheet", false],
    ]);
    expect(items[0]!.availabilityId).toBe(shown.id);
    expect(items[0]!.priceCents).toBe(2499);
    for (const i of items.slice(1)) expect(i.url).toBe(`/product/${i.url.split("/")[2]}/${i.availabilityId}`);
  });

  it("leave out a companion not on sale yet, and offer nothing on a page whose own format is not on sale", async () => {
    // The special issue is paired with the R&D kit and the coming-soon innovation set.
    const { items } = await offer("meridian-review-special-issue-future-of-the-research-lab");
    expect(items.map((i) => i.title)).toEqual([
      "Meridian Review Special Issue: The Future of the Research Lab",
      "R&D Portfolio Review Kit",
    ]);
    expect((await offer("machines-at-the-table")).items).toEqual([]);
  });
});

describe("adding several items at once", () => {
  it("adds each checked item once, in order", async () => {
    const cart = await createCart(db, null);
    const { items } = await offer("the-patient-ledger");
    const outcome = await addAllToCart(
      db,
      cart,
      items.map((i) => item(i.availabilityId)),
    );
    expect(outcome.ok).toBe(true);
    const lines = (await readCart(db, cart)).lines;
    expect(lines.map((l) => [l.availabilityId, l.quantity])).toEqual(items.map((i) => [i.availabilityId, 1]));
    if (outcome.ok) expect(outcome.lines.map((l) => l.lineId)).toEqual(lines.map((l) => l.id));
  });

  it("adds none of them when one is refused, and names that one", async () => {
    const cart = await createCart(db, null);
    const { items } = await offer("the-patient-ledger", "KND");
    // The ebook is already in the cart, and a digital item is sold one to an order.
    expect((await addToCart(db, cart, item(items[0]!.availabilityId))).ok).toBe(true);
    const outcome = await addAllToCart(db, cart, items.map((i) => item(i.availabilityId)).reverse());
    expect(outcome).toMatchObject({ ok: false, problem: "digital-limit", availabilityId: items[0]!.availabilityId });
    expect((await readCart(db, cart)).lines.map((l) => l.availabilityId)).toEqual([items[0]!.availabilityId]);

    const refused = await addAllToCart(db, cart, [item(items[1]!.availabilityId), item(999_999)]);
    expect(refused).toMatchObject({ ok: false, problem: "unknown-product", availabilityId: 999_999 });
    expect((await readCart(db, cart)).lines).toHaveLength(1);
  });
});
