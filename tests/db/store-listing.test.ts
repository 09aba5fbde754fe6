import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import {
  NO_STORE_CHOICES,
  readStoreAddress,
  storeFilters,
  storePage,
  type ProductCard,
  type StoreChoices,
  type StoreFilters,
} from "~/server/store/catalogue";
import type { StoreSort } from "~/shared/store-choices";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// The store's listing as a shopper narrows and orders it (issue 41): by keywords, product type,
// topic and format, newest first, by price either way or by title, a page at a time; and the
// address each choice is read from.

let db: Database;
let close: () => Promise<void>;
let filters: StoreFilters;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  filters = await storeFilters(db);
});
afterAll(() => close());

const option = (options: { slug: string; name: string }[], slug: string) => options.find((o) => o.slug === slug)!;
const choices = (changes: { type?: string; topic?: string; format?: string; q?: string; sort?: StoreSort }, f = filters): StoreChoices => ({
  type: changes.type ? option(f.types, changes.type) : null,
  topic: changes.topic ? option(f.topics, changes.topic) : null,
  format: changes.format ? option(f.formats, changes.format) : null,
  q: changes.q ?? "",
  sort: changes.sort ?? "newest",
});

/** Every card of a listing, page after page, with the total each page gave. */
async function wholeListing(c: StoreChoices, now = new Date()): Promise<{ cards: ProductCard[]; total: number }> {
  const first = await storePage(db, c, 1, now);
  const cards = [...first.entries];
  for (let page = 2; page <= first.page.last; page++) {
    const next = await storePage(db, c, page, now);
    expect(next.page.total).toBe(first.page.total);
    cards.push(...next.entries);
  }
  return { cards, total: first.page.total };
}

const titles = async (c: StoreChoices) => (await wholeListing(c)).cards.map((card) => card.title);

describe(`the store's listing, narrowed and ordered (${dialectName})`, () => {
  it("offers the formats the catalogue sells, each once, by name", () => {
    expect(filters.formats.map((f) => f.name)).toEqual([
      "Bundle",
      "Ebook",
      "Hardcover",
      "HTML",
      "Paperback",
      "PDF",
      "Slides",
      "Spreadsheet",
    ]);
    expect(option(filters.formats, "ebook").name).toBe("Ebook");
  });

  it("orders every product once by each sort, a page at a time, by the price each card shows", async () => {
    const newest = await wholeListing(choices({}));
    const ids = newest.cards.map((c) => c.id).sort();
    for (const sort of ["price-low", "price-high", "title"] as const) {
      const { cards, total } = await wholeListing(choices({ sort }));
      expect(total, sort).toBe(newest.total);
      expect(cards.map((c) => c.id).sort(), sort).toEqual(ids);
    }
    const prices = (await wholeListing(choices({ sort: "price-low" }))).cards.map((c) => c.fromPriceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // A coming-soon product is priced as its card prices it: Machines at the Table's ebook, $22.99.
    const high = (await wholeListing(choices({ sort: "price-high" }))).cards;
    expect(high.map((c) => c.fromPriceCents)).toEqual([...prices].reverse());
    expect(high[0]!.title).toBe("The Innovation Leader's Set");
    expect(high.find((c) => c.title.startsWith("Machines at the Table"))!.fromPriceCents).toBe(2299);
    const byTitle = await titles(choices({ sort: "title" }));
    expect(byTitle).toEqual([...byTitle].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(byTitle[0]).toBe("Brightwater Utilities: A Board Confronts Succession");
  });

  it("puts the newest first between equal prices", async () => {
    const cards = (await wholeListing(choices({ type: "case-study", sort: "price-low" }))).cards;
    // All three case studies cost $8.95.
    expect(cards.map((c) => c.fromPriceCents)).toEqual([895, 895, 895]);
    expect(cards.map((c) => c.title)).toEqual((await wholeListing(choices({ type: "case-study" }))).cards.map((c) => c.title));
  });

  it("filters by format, each card leading with that format at its price", async () => {
    const { cards, total } = await wholeListing(choices({ format: "spreadsheet", sort: "price-low" }));
    expect(total).toBe(2);
    // The R&D kit's slides cost $39 and its spreadsheet $69: as a spreadsheet it is the dearer kit.
    expect(cards.map((c) => [c.title, c.format, c.fromPriceCents])).toEqual([
      ["Scenario Planning Toolkit", "Spreadsheet", 4900],
      ["R&D Portfolio Review Kit", "Spreadsheet", 6900],
    ]);
    const slides = (await wholeListing(choices({ format: "slides", sort: "price-low" }))).cards;
    expect(slides.map((c) => [c.title, c.fromPriceCents])).toEqual([
      ["R&D Portfolio Review Kit", 3900],
      ["Scenario Planning Toolkit", 4900],
    ]);
    const pdfs = await wholeListing(choices({ format: "pdf" }));
    for (const card of pdfs.cards) {
      expect(card.formats, card.title).toContain("PDF");
      expect(card.format, card.title).toBe("PDF");
    }
    const offered = await db
      .selectFrom("product_availability")
      .select("product_id")
      .distinct()
      .where("format", "=", "PDF")
      .where("status", "!=", "R")
      .execute();
    expect(pdfs.total).toBe(offered.length);
    // Combined with a type and a topic: the Patient Ledger is the one finance book in PDF.
    expect(await titles(choices({ type: "book", topic: "finance-and-accounting", format: "pdf" }))).toEqual([
      "The Patient Ledger: Capital Allocation for Long-Horizon Companies",
    ]);
  });

  it("finds keywords in titles, summaries, descriptions and authors, every word, whatever their case", async () => {
    expect(await titles(choices({ q: "LEDGER" }))).toEqual(["The Patient Ledger: Capital Allocation for Long-Horizon Companies"]);
    expect(await titles(choices({ q: "okonkwo" }))).toEqual(["The Patient Ledger: Capital Allocation for Long-Horizon Companies"]);
    const scenario = await titles(choices({ q: "scenario" }));
    expect(scenario).toContain("Scenario Planning Toolkit");
    expect(await titles(choices({ q: "scenario worksheets" }))).toEqual(["Scenario Planning Toolkit"]);
    expect(await titles(choices({ q: "scenario nonesuchword" }))).toEqual([]);
    expect(await titles(choices({ q: "scenario", type: "book" }))).not.toContain("Scenario Planning Toolkit");
    const { total } = await wholeListing(choices({ q: "the" }));
    expect(total).toBeGreaterThan(8);
  });

  it("takes a keyword's % and _ literally", async () => {
    expect(await titles(choices({ q: "%" }))).toEqual([]);
    expect(await titles(choices({ q: "_" }))).toEqual([]);
    await db
      .updateTable("product")
      .set({ summary: "Cuts costs by 40% in a year." })
      .where("slug", "=", "the-hidden-cost-of-consensus")
      .execute();
    expect(await titles(choices({ q: "40%" }))).toEqual(["The Hidden Cost of Consensus"]);
    expect(await titles(choices({ q: "4_%" }))).toEqual([]);
  });

  it("orders by the price in force at the moment asked, and leaves retired formats out of a format's listing", async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 86_400_000);
    const reprint = await db
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.id", "p.id as productId"])
      .where("p.slug", "=", "pricing-for-the-customer-you-want")
      .where("a.format", "=", "Paperback")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("price_change")
      .values({
        id: "store-listing-1",
        availability_id: reprint.id,
        price_cents: 99_00,
        starts_at: later.toISOString(),
        created_at: now.toISOString(),
        created_by: "test",
      })
      .execute();
    const dearest = async (at: Date) => (await storePage(db, choices({ format: "paperback", sort: "price-high" }), 1, at)).entries[0]!;
    expect((await dearest(now)).id).not.toBe(reprint.productId);
    expect(await dearest(later)).toMatchObject({ id: reprint.productId, fromPriceCents: 99_00 });

    await db.updateTable("product_availability").set({ status: "R" }).where("id", "=", reprint.id).execute();
    expect((await wholeListing(choices({ format: "paperback" }))).cards.map((c) => c.id)).not.toContain(reprint.productId);
    expect((await wholeListing(choices({ format: "pdf" }))).cards.map((c) => c.id)).toContain(reprint.productId);
  });
});

describe("the store's address", () => {
  const read = (query: string) => readStoreAddress(new URLSearchParams(query), filters);

  it("reads each choice by slug, and says them back in one canonical order", () => {
    expect(read("type=book&topic=strategy&format=ebook&q=ledger&sort=price-low&page=2")).toEqual({
      choices: choices({ type: "book", topic: "strategy", format: "ebook", q: "ledger", sort: "price-low" }),
      page: 2,
      path: "/store?type=book&topic=strategy&format=ebook&q=ledger&sort=price-low&page=2",
      redirect: null,
    });
    expect(read("")).toEqual({ choices: NO_STORE_CHOICES, page: 1, path: "/store", redirect: null });
  });

  it("sends a form's empty fields, the default order, junk and an old loaded= to the canonical address, keeping other values", () => {
    expect(read("type=&topic=&format=&q=&sort=newest")?.redirect).toBe("/store");
    expect(read("type=&topic=strategy&format=pdf&q=&sort=newest")?.redirect).toBe("/store?topic=strategy&format=pdf");
    expect(read("q=%20%20the%20%20ledger%20&sort=title")).toMatchObject({
      choices: { q: "the ledger" },
      redirect: "/store?q=the+ledger&sort=title",
    });
    expect(read("sort=cheapest&page=abc&loaded=2&voucher_code=ABC")).toMatchObject({
      choices: NO_STORE_CHOICES,
      redirect: "/store?voucher_code=ABC",
    });
    expect(read("topic=strategy&type=book")?.redirect).toBe("/store?type=book&topic=strategy");
  });

  it("knows no type, topic or format the store lacks", () => {
    for (const query of ["type=spaceships", "topic=no-such-topic", "format=vinyl", "format=PDF"])
      expect(read(query), query).toBeUndefined();
  });
});
