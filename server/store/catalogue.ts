import type { Database } from "~/server/db/connection";
import type { LineType, ProductAvailabilityTable } from "~/server/db/schema";
import { lastPage, type Paging } from "~/shared/pagination";
import { articlePath, productCoverPath, productPath, topicPath } from "~/shared/urls";
import { linePrice, PERMISSION_TIERS, VOLUME_TIERS } from "~/shared/pricing";
import { isCollection, isDigitalCode, leadAvailability } from "~/shared/product-types";

/** The store lists like a stream without a page-size attribute (spec section 9: 8 a page). */
export const STORE_PAGE_SIZE = 8;

export interface Availability {
  id: number;
  format: string;
  code: string;
  language: string;
  listPriceCents: number;
  lineType: LineType;
  /** Status F: coming soon, not on sale before availableDate. */
  comingSoon: boolean;
  availableDate: string | null;
  permissionsAvailable: boolean;
  volumePricing: boolean;
  url: string;
}

/** What the store listing and "You might also like" show of a product. */
export interface ProductCard {
  id: number;
  title: string;
  /** The product's cover art (server/images/art.ts). */
  cover: string;
  productType: string;
  topic: { name: string; slug: string };
  /** The canonical page of the lead availability (the first on sale, else the first). */
  url: string;
  /** Format and price of the lead availability. */
  format: string;
  priceCents: number;
  /** Every format the product comes in, once each, in catalogue order. */
  formats: string[];
  /** The lowest price among the availabilities sharing the lead's status. */
  fromPriceCents: number;
  /** Nothing of the product is on sale yet. */
  comingSoon: boolean;
  availableDate: string | null;
}

export interface ProductPage {
  id: number;
  slug: string;
  title: string;
  productType: string;
  authors: string[];
  summary: string;
  description: string;
  published: string;
  pages: number;
  topic: { name: string; slug: string; url: string };
  availabilities: Availability[];
  /** A book's chapters, or the articles of a magazine issue with their pages; empty for other products. */
  contents: { title: string; url: string | null }[];
}

export interface StoreFilters {
  types: { slug: string; name: string }[];
  topics: { slug: string; name: string }[];
}

export interface StorePage {
  entries: ProductCard[];
  page: { number: number; loaded: number; last: number; size: number; total: number };
}

export const productTypeSlug = (type: string) =>
  type
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function toAvailability(slug: string, r: ProductAvailabilityTable): Availability {
  return {
    id: r.id,
    format: r.format,
    code: r.code,
    language: r.language,
    listPriceCents: r.list_price_cents,
    lineType: r.line_type,
    comingSoon: r.status === "F",
    availableDate: r.available_date,
    permissionsAvailable: r.permissions_available === 1,
    volumePricing: r.volume_pricing === 1,
    url: productPath({ slug, availabilityId: r.id }),
  };
}

async function availabilitiesOf(db: Database, productIds: number[]): Promise<ProductAvailabilityTable[]> {
  if (productIds.length === 0) return [];
  return db
    .selectFrom("product_availability")
    .select([
      "id",
      "product_id",
      "format",
      "code",
      "language",
      "list_price_cents",
      "line_type",
      "status",
      "available_date",
      "permissions_available",
      "volume_pricing",
    ])
    .where("product_id", "in", productIds)
    .orderBy("id")
    .execute();
}

function productCardQuery(db: Database) {
  return db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .select([
      "product.id",
      "product.slug",
      "product.title",
      "product.product_type",
      "topic.name as topic_name",
      "topic.slug as topic_slug",
    ]);
}

type CardRow = { id: number; slug: string; title: string; product_type: string; topic_name: string; topic_slug: string };

async function toCards(db: Database, rows: CardRow[]): Promise<ProductCard[]> {
  const byProduct = new Map<number, ProductAvailabilityTable[]>();
  for (const a of await availabilitiesOf(
    db,
    rows.map((r) => r.id),
  )) {
    const list = byProduct.get(a.product_id);
    if (list) list.push(a);
    else byProduct.set(a.product_id, [a]);
  }
  return rows.flatMap((r) => {
    const availabilities = (byProduct.get(r.id) ?? []).map((a) => toAvailability(r.slug, a));
    const lead = leadAvailability(availabilities);
    if (!lead) return [];
    const sameStatus = availabilities.filter((a) => a.comingSoon === lead.comingSoon);
    const dates = sameStatus.map((a) => a.availableDate).filter((d): d is string => d !== null);
    return [
      {
        id: r.id,
        title: r.title,
        cover: productCoverPath(r.slug),
        productType: r.product_type,
        topic: { name: r.topic_name, slug: r.topic_slug },
        url: lead.url,
        format: lead.format,
        priceCents: lead.listPriceCents,
        formats: [...new Set(availabilities.map((a) => a.format))],
        fromPriceCents: Math.min(...sameStatus.map((a) => a.listPriceCents)),
        comingSoon: lead.comingSoon,
        availableDate: lead.comingSoon ? (dates.sort()[0] ?? null) : null,
      },
    ];
  });
}

/** The product types and topics the store can be browsed by: only those that have products. */
export async function storeFilters(db: Database): Promise<StoreFilters> {
  const [types, topics] = await Promise.all([
    db.selectFrom("product").select("product_type").distinct().orderBy("product_type").execute(),
    db
      .selectFrom("topic")
      .select(["topic.slug", "topic.name"])
      .where("topic.id", "in", db.selectFrom("product").select("topic_id"))
      .orderBy("topic.name")
      .execute(),
  ]);
  return {
    types: types.map((t) => ({ slug: productTypeSlug(t.product_type), name: t.product_type })),
    topics: topics.map((t) => ({ slug: t.slug, name: t.name })),
  };
}

/**
 * Every listing of the store that has products (all of them, each type's, each topic's, and each
 * type's within a topic) with how many it lists: what the sitemap lists.
 */
export async function storeListings(db: Database): Promise<{ filter: { type: string | null; topic: string | null }; total: number }[]> {
  const rows = await db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .select(["product.product_type", "topic.slug", (eb) => eb.fn.countAll().as("n")])
    .groupBy(["product.product_type", "topic.slug"])
    .execute();
  const listings = new Map<string, { filter: { type: string | null; topic: string | null }; total: number }>();
  for (const row of rows) {
    const type = productTypeSlug(row.product_type);
    for (const filter of [
      { type: null, topic: null },
      { type, topic: null },
      { type: null, topic: row.slug },
      { type, topic: row.slug },
    ]) {
      const key = JSON.stringify(filter);
      const listing = listings.get(key) ?? { filter, total: 0 };
      listing.total += Number(row.n);
      listings.set(key, listing);
    }
  }
  return [...listings.values()];
}

/**
 * Pages page..page+loaded-1 of the store, newest first, filtered by product type (its name)
 * and topic (its slug). A page past the end is empty.
 */
export async function storePage(
  db: Database,
  filter: { type: string | null; topicSlug: string | null },
  paging: Paging,
): Promise<StorePage> {
  let q = productCardQuery(db);
  if (filter.type !== null) q = q.where("product.product_type", "=", filter.type);
  if (filter.topicSlug !== null) q = q.where("topic.slug", "=", filter.topicSlug);
  const [{ n }, rows] = await Promise.all([
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
    q
      .orderBy("product.published", "desc")
      .orderBy("product.id", "desc")
      .limit(STORE_PAGE_SIZE * paging.loaded)
      .offset((paging.page - 1) * STORE_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(n);
  return {
    entries: await toCards(db, rows),
    page: { number: paging.page, loaded: paging.loaded, last: lastPage(total, STORE_PAGE_SIZE), size: STORE_PAGE_SIZE, total },
  };
}

async function productWhere(db: Database, column: "product.id" | "product.slug", value: number | string): Promise<ProductPage | undefined> {
  const row = await db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .selectAll("product")
    .select(["topic.name as topic_name", "topic.slug as topic_slug"])
    .where(column, "=", value)
    .executeTakeFirst();
  if (!row) return undefined;
  const availabilities = (await availabilitiesOf(db, [row.id])).map((a) => toAvailability(row.slug, a));
  const [sections, articles] = !isCollection(row.product_type)
    ? [[], []]
    : await Promise.all([
        db.selectFrom("product_section").select("title").where("product_id", "=", row.id).orderBy("position").execute(),
        db
          .selectFrom("product_article as pa")
          .innerJoin("article as a", "a.id", "pa.article_id")
          .select(["a.title", "a.year", "a.month", "a.slug"])
          .where("pa.product_id", "=", row.id)
          .orderBy("pa.position")
          .execute(),
      ]);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    productType: row.product_type,
    authors: row.authors.split(", ").filter(Boolean),
    summary: row.summary,
    description: row.description,
    published: row.published,
    pages: row.pages,
    topic: { name: row.topic_name, slug: row.topic_slug, url: topicPath(row.topic_slug) },
    availabilities,
    contents: [...sections.map((s) => ({ title: s.title, url: null })), ...articles.map((a) => ({ title: a.title, url: articlePath(a) }))],
  };
}

/** The product a slug names, with every availability in catalogue order. */
export const productBySlug = (db: Database, slug: string) => productWhere(db, "product.slug", slug);

/** The product behind the short form /product/{id}. */
export const productById = (db: Database, id: number) => productWhere(db, "product.id", id);

/** Products on sale now, those on topicId first, then the newest; productId left out. */
async function onSaleTopicFirst(db: Database, topicId: number | null, leaveOut: number | null, limit: number): Promise<ProductCard[]> {
  let q = productCardQuery(db).where((eb) =>
    eb.exists(
      eb.selectFrom("product_availability as a").select("a.id").whereRef("a.product_id", "=", "product.id").where("a.status", "=", "A"),
    ),
  );
  if (leaveOut !== null) q = q.where("product.id", "!=", leaveOut);
  const rows = await q
    .orderBy((eb) =>
      eb
        .case()
        .when("product.topic_id", "=", topicId ?? -1)
        .then(0)
        .else(1)
        .end(),
    )
    .orderBy("product.published", "desc")
    .orderBy("product.id", "desc")
    .limit(Math.max(0, Math.min(limit, 50)))
    .execute();
  return toCards(db, rows);
}

/**
 * "You might also like": other products on sale now, those on the same topic as productId
 * (a product id, as CartLine.productId, not an availability id) first, then the newest.
 */
export async function recommendationsFor(db: Database, productId: number, limit: number): Promise<ProductCard[]> {
  const product = await db.selectFrom("product").select("topic_id").where("id", "=", productId).executeTakeFirst();
  return onSaleTopicFirst(db, product?.topic_id ?? null, productId, limit);
}

/** The product an article's promo shows: one on sale on the article's topic if any, else the newest on sale. */
export async function promoProduct(db: Database, topicId: number): Promise<ProductCard | undefined> {
  return (await onSaleTopicFirst(db, topicId, null, 1))[0];
}

/**
 * The volume pricing a product page shows: each tier's copies and unit price, fewest copies
 * first. None for an availability without volume pricing, or one sold one to a customer (a
 * digital file), which can never reach a tier.
 */
export function volumePrices(availability: {
  volumePricing: boolean;
  code: string;
  listPriceCents: number;
}): { copies: string; unitPriceCents: number }[] | null {
  if (!availability.volumePricing || isDigitalCode(availability.code)) return null;
  return volumePriceTable(availability.listPriceCents);
}

/** The price of a copy of a product's copyright permission, by the number of copies. */
export function permissionPrices(): { copies: string; unitPriceCents: number }[] {
  return priceTable(
    PERMISSION_TIERS.map((t) => t.from),
    (copies) => linePrice({ kind: "perm", listPriceCents: 0, quantity: copies, volumePricing: false }).unitPriceCents,
  );
}

function volumePriceTable(listPriceCents: number): { copies: string; unitPriceCents: number }[] {
  return priceTable(
    VOLUME_TIERS.map((t) => t.from),
    (copies) => linePrice({ kind: "item", listPriceCents, quantity: copies, volumePricing: true }).unitPriceCents,
  );
}

/** Rows of "copies" ranges (from 1, then from each tier's first copy) and the unit price of each. */
function priceTable(tierStarts: number[], unitCentsAt: (copies: number) => number): { copies: string; unitPriceCents: number }[] {
  const froms = [...new Set([1, ...tierStarts])].sort((a, b) => a - b);
  return froms.map((from, i) => {
    const next = froms[i + 1];
    return { copies: next ? `${from}–${next - 1}` : `${from} or more`, unitPriceCents: unitCentsAt(from) };
  });
}
