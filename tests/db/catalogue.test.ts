import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { leadAvailability } from "~/shared/product-types";
import {
  productById,
  productBySlug,
  promoProduct,
  recommendationsFor,
  NO_STORE_CHOICES,
  STORE_PAGE_SIZE,
  storeFilters,
  storePage,
  volumePrices,
  type StoreChoices,
  type StoreFilters,
} from "~/server/store/catalogue";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let productCount: number;
let filters: StoreFilters;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  filters = await storeFilters(db);
  productCount = Number(
    (
      await db
        .selectFrom("product")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
});
afterAll(() => close());

const all = NO_STORE_CHOICES;

/** The listing of a product type's shelf, a topic's, or both, by their slugs. */
const shelf = (type: string | null, topic: string | null): StoreChoices => ({
  ...all,
  type: type === null ? null : filters.types.find((t) => t.slug === type)!,
  topic: topic === null ? null : filters.topics.find((t) => t.slug === topic)!,
});

describe("store listing", () => {
  it("pages through every product once, newest first, eight a page", async () => {
    const first = await storePage(db, all, 1);
    expect(first.page).toMatchObject({
      number: 1,
      size: STORE_PAGE_SIZE,
      total: productCount,
      last: Math.ceil(productCount / STORE_PAGE_SIZE),
    });
    expect(first.entries).toHaveLength(STORE_PAGE_SIZE);
    const seen: number[] = [];
    for (let page = 1; page <= first.page.last; page++) seen.push(...(await storePage(db, all, page)).entries.map((e) => e.id));
    expect(new Set(seen).size).toBe(productCount);
    const published = await Promise.all(seen.map(async (id) => (await productById(db, id))!.published));
    expect(published).toEqual([...published].sort().reverse());
  });

  it("lists nothing past the end", async () => {
    expect((await storePage(db, all, 99)).entries).toEqual([]);
  });

  it("filters by product type and by topic, together or alone", async () => {
    expect(filters.types.map((t) => t.slug)).toEqual(expect.arrayContaining(["book", "case-study", "bundle", "toolkit"]));
    const books = await storePage(db, shelf("book", null), 1);
    expect(books.entries.length).toBeGreaterThan(1);
    expect(books.entries.every((e) => e.productType === "Book")).toBe(true);
    const strategy = await storePage(db, shelf(null, "strategy"), 1);
    expect(strategy.entries.length).toBeGreaterThan(1);
    expect(strategy.entries.every((e) => e.topic.slug === "strategy")).toBe(true);
    const both = await storePage(db, shelf("toolkit", "strategy"), 1);
    expect(both.page.total).toBe(both.entries.length);
    expect(both.entries.every((e) => e.productType === "Toolkit" && e.topic.slug === "strategy")).toBe(true);
    expect((await storePage(db, shelf("book", "board-governance"), 1)).page.total).toBe(0);
    // Every topic offered has products.
    for (const topic of filters.topics) expect((await storePage(db, shelf(null, topic.slug), 1)).page.total, topic.slug).toBeGreaterThan(0);
  });

  it("cards a coming-soon product with its date, and a product on sale with its first format on sale", async () => {
    const books = (await storePage(db, shelf("book", null), 1)).entries;
    const soon = books.find((b) => b.comingSoon)!;
    expect(soon.availableDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const onSale = books.find((b) => !b.comingSoon)!;
    expect(onSale.availableDate).toBeNull();
    const product = (await productById(db, onSale.id))!;
    const lead = product.availabilities.find((a) => !a.comingSoon)!;
    expect(onSale.url).toBe(`/product/${product.slug}/${lead.id}`);
    expect(onSale.priceCents).toBe(lead.listPriceCents);
    expect(onSale.formats).toEqual([...new Set(product.availabilities.map((a) => a.format))]);
    expect(onSale.fromPriceCents).toBe(Math.min(...product.availabilities.map((a) => a.listPriceCents)));
  });
});

describe("one product", () => {
  it("reads a product by slug with every availability, and the same one by id", async () => {
    const product = (await productBySlug(db, "the-patient-ledger"))!;
    expect(product.title).toMatch(/^The Patient Ledger/);
    expect(product.topic).toMatchObject({ name: "Finance & Accounting", url: "/topic/subject/finance-and-accounting" });
    expect(product.authors).toEqual(["Adaeze Okonkwo-Price"]);
    expect(product.availabilities.map((a) => [a.code, a.lineType, a.listPriceCents])).toEqual([
      ["HBK", "SHIP", 3200],
      ["KND", "EBOOK", 2499],
      ["PDF", "DIGITAL", 2499],
    ]);
    expect(product.availabilities[0]).toMatchObject({
      volumePricing: true,
      permissionsAvailable: false,
      comingSoon: false,
      url: `/product/the-patient-ledger/${product.availabilities[0]!.id}`,
    });
    expect(await productById(db, product.id)).toEqual(product);
    expect(await productBySlug(db, "no-such-product")).toBeUndefined();
    expect(await productById(db, 99_999)).toBeUndefined();
  });

  it("leads with the first availability on sale, else the first", async () => {
    const coming = (await productBySlug(db, "machines-at-the-table"))!;
    expect(coming.availabilities.every((a) => a.comingSoon && a.availableDate)).toBe(true);
    expect(leadAvailability(coming.availabilities)).toBe(coming.availabilities[0]);
    const mixed = [
      { id: 1, comingSoon: true },
      { id: 2, comingSoon: false },
    ];
    expect(leadAvailability(mixed)?.id).toBe(2);
    expect(leadAvailability([])).toBeUndefined();
  });
});

describe("recommendations and the article promo", () => {
  it("recommends other products on sale, same topic first", async () => {
    const ledger = (await productBySlug(db, "the-patient-ledger"))!;
    const strategyBundle = (await productBySlug(db, "strategy-essentials-collection"))!;
    const recs = await recommendationsFor(db, strategyBundle.id, 20);
    expect(recs.map((r) => r.id)).not.toContain(strategyBundle.id);
    expect(recs.every((r) => !r.comingSoon)).toBe(true);
    const topics = recs.map((r) => r.topic.slug);
    const sameTopic = topics.filter((t) => t === "strategy").length;
    expect(sameTopic).toBeGreaterThan(0);
    expect(topics.slice(0, sameTopic).every((t) => t === "strategy")).toBe(true);
    expect(recs.map((r) => r.id)).toContain(ledger.id);
    expect(recs[0]).toEqual(
      expect.objectContaining({
        title: expect.any(String),
        url: expect.stringMatching(/^\/product\/[a-z0-9-]+\/\d+$/),
        format: expect.any(String),
        priceCents: expect.any(Number),
        productType: expect.any(String),
        comingSoon: false,
        availableDate: null,
      }),
    );
    expect(await recommendationsFor(db, strategyBundle.id, 3)).toHaveLength(3);
    expect(await recommendationsFor(db, strategyBundle.id, 0)).toEqual([]);
  });

  it("leaves out products not on sale yet", async () => {
    const coming = (await productBySlug(db, "machines-at-the-table"))!;
    const innovationSet = (await productBySlug(db, "the-innovation-leaders-set"))!;
    const notOnSale = await db
      .selectFrom("product as p")
      .select("p.id")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom("product_availability as a").select("a.id").whereRef("a.product_id", "=", "p.id").where("a.status", "=", "A")),
        ),
      )
      .execute();
    expect(notOnSale.map((p) => p.id)).toEqual(expect.arrayContaining([coming.id, innovationSet.id]));
    const recs = await recommendationsFor(db, (await productBySlug(db, "the-patient-ledger"))!.id, 50);
    for (const p of notOnSale) expect(recs.map((r) => r.id)).not.toContain(p.id);
    // Every other product on sale, the Patient Ledger itself aside.
    expect(recs).toHaveLength(productCount - notOnSale.length - 1);
  });

  it("promotes a product on the article's topic when there is one, else the newest on sale", async () => {
    const topic = async (slug: string) => (await db.selectFrom("topic").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
    expect((await promoProduct(db, await topic("finance-and-accounting")))?.topic.slug).toBe("finance-and-accounting");
    // Technology's only product is coming soon: the promo falls back to another topic.
    const fallback = (await promoProduct(db, await topic("technology")))!;
    expect(fallback.comingSoon).toBe(false);
    expect(fallback.id).toBe((await storePage(db, all, 1)).entries.find((e) => !e.comingSoon)!.id);
  });
});

describe("volume pricing table", () => {
  const printed = (listPriceCents: number) => ({ volumePricing: true, code: "HBK", listPriceCents });

  it("lists the tiers from one copy up, each with its discounted unit price", () => {
    expect(volumePrices(printed(3200))).toEqual([
      { copies: "1–9", unitPriceCents: 3200 },
      { copies: "10–49", unitPriceCents: 2880 },
      { copies: "50 or more", unitPriceCents: 2560 },
    ]);
    expect(volumePrices(printed(895))!.map((t) => t.unitPriceCents)).toEqual([895, 806, 716]);
  });

  it("shows none where no tier can be reached: without volume pricing, or for a digital file sold one to a customer", () => {
    expect(volumePrices({ ...printed(3200), volumePricing: false })).toBeNull();
    expect(volumePrices({ ...printed(3200), code: "PDF" })).toBeNull();
  });
});
