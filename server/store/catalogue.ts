import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "~/server/db/connection";
import type { AvailabilityStatus, DB, LineType } from "~/server/db/schema";
import { imageSources, type ImageSources } from "~/shared/uploaded-images";
import { lastPage, parsePaging } from "~/shared/pagination";
import { normaliseQuery } from "~/shared/search-query";
import { DEFAULT_STORE_SORT, isStoreSort, storeChoicesPath, type StoreSort } from "~/shared/store-choices";
import { articlePath, productCoverPath, productPath, topicPath } from "~/shared/urls";
import { linePrice, PERMISSION_TIERS, VOLUME_TIERS } from "~/shared/pricing";
import { isCollection, isDigitalCode, leadAvailability } from "~/shared/product-types";
import { nextPriceChangeAt, priceInForce } from "./prices";

/** The store lists like a stream without a page-size attribute (spec section 9: 8 a page). */
export const STORE_PAGE_SIZE = 8;

export interface Availability {
  id: number;
  format: string;
  code: string;
  language: string;
  /** The price in force at the moment the catalogue was read (ADR 091). */
  listPriceCents: number;
  lineType: LineType;
  /** Status F: coming soon, not on sale before availableDate. */
  comingSoon: boolean;
  /** Status R: no longer sold; its page says so and it cannot be added to a cart (ADR 091). */
  retired: boolean;
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
  /** An uploaded cover, shown instead of the drawn one (ADR 091), as its sources. */
  coverPicture: ImageSources | null;
  productType: string;
  topic: { name: string; slug: string };
  /** The canonical page of the lead availability (the first on sale, else the first; of the chosen format, if one was). */
  url: string;
  /** Format and price of the lead availability. */
  format: string;
  priceCents: number;
  /** Every format the product comes in, once each, in catalogue order. */
  formats: string[];
  /** The lowest price among the availabilities sharing the lead's status (and format, if one was chosen): what the card shows. */
  fromPriceCents: number;
  /** Nothing of the product is on sale yet. */
  comingSoon: boolean;
  availableDate: string | null;
  /** When a price the card shows next changes: a card kept until then is still right. */
  pricedUntil: string | null;
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
  /** An uploaded cover, shown instead of the drawn one (ADR 091), as its sources. */
  coverPicture: ImageSources | null;
  /** Every availability is retired: the product is no longer sold. */
  retired: boolean;
  availabilities: Availability[];
  /** A book's chapters, or the articles of a magazine issue with their pages; empty for other products. */
  contents: { title: string; url: string | null }[];
}

/** A product type, topic or format the store can be browsed by: its name, and the slug its address uses. */
export interface StoreOption {
  slug: string;
  name: string;
}

export interface StoreFilters {
  types: StoreOption[];
  topics: StoreOption[];
  /** The formats products are offered in (Hardcover, Ebook, PDF…), as the catalogue names them. */
  formats: StoreOption[];
}

/** What a shopper chose on the store's listing: each filter, or null for all; keywords, or ""; an order. */
export interface StoreChoices {
  type: StoreOption | null;
  topic: StoreOption | null;
  format: StoreOption | null;
  q: string;
  sort: StoreSort;
}

export const NO_STORE_CHOICES: StoreChoices = { type: null, topic: null, format: null, q: "", sort: DEFAULT_STORE_SORT };

export interface StorePage {
  entries: ProductCard[];
  page: { number: number; last: number; size: number; total: number };
}

export const productTypeSlug = (type: string) =>
  type
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

type AvailabilityRow = Awaited<ReturnType<typeof availabilitiesOf>>[number];

function toAvailability(slug: string, r: AvailabilityRow): Availability {
  return {
    id: r.id,
    format: r.format,
    code: r.code,
    language: r.language,
    listPriceCents: Number(r.price_cents),
    lineType: r.line_type,
    comingSoon: r.status === "F",
    retired: r.status === "R",
    availableDate: r.available_date,
    permissionsAvailable: r.permissions_available === 1,
    volumePricing: r.volume_pricing === 1,
    url: productPath({ slug, availabilityId: r.id }),
  };
}

async function availabilitiesOf(db: Database, productIds: number[], now: Date) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom("product_availability")
    .select([
      "id",
      "product_id",
      "format",
      "code",
      "language",
      "line_type",
      "status",
      "available_date",
      "permissions_available",
      "volume_pricing",
    ])
    .select([
      priceInForce("product_availability", now).as("price_cents"),
      nextPriceChangeAt("product_availability", now).as("next_price_at"),
    ])
    .where("product_id", "in", productIds)
    .orderBy("id")
    .execute();
}

/** The product still has something the store sells or will sell: an availability that is not retired. */
export const stillSold = (eb: ExpressionBuilder<DB, "product">) =>
  eb.exists(
    eb
      .selectFrom("product_availability as sold")
      .select("sold.id")
      .whereRef("sold.product_id", "=", "product.id")
      .where("sold.status", "!=", "R" satisfies AvailabilityStatus),
  );

function productCardQuery(db: Database) {
  return db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .leftJoin("image as cover", "cover.id", "product.cover_image_id")
    .select([
      "product.id",
      "product.slug",
      "product.title",
      "product.product_type",
      "topic.name as topic_name",
      "topic.slug as topic_slug",
      "cover.id as cover_id",
      "cover.width as cover_width",
      "cover.height as cover_height",
      "cover.alt as cover_alt",
    ])
    .where(stillSold);
}

type CoverColumns = { cover_id: string | null; cover_width: number | null; cover_height: number | null; cover_alt: string | null };

/** An uploaded cover from its joined columns, as the sources a page shows it by (worked out here, not in the browser), or null. */
export const coverOf = (r: CoverColumns): ImageSources | null =>
  r.cover_id === null ? null : imageSources({ id: r.cover_id, width: r.cover_width!, height: r.cover_height!, alt: r.cover_alt });

type CardRow = { id: number; slug: string; title: string; product_type: string; topic_name: string; topic_slug: string } & CoverColumns;

/**
 * Cards for the rows, priced at `now`. With a format, a card leads with that format: its link,
 * price and date are the format's, as the shopper chose it.
 */
async function toCards(db: Database, rows: CardRow[], now: Date, format: string | null = null): Promise<ProductCard[]> {
  const byProduct = new Map<number, AvailabilityRow[]>();
  for (const a of await availabilitiesOf(
    db,
    rows.map((r) => r.id),
    now,
  )) {
    const list = byProduct.get(a.product_id);
    if (list) list.push(a);
    else byProduct.set(a.product_id, [a]);
  }
  return rows.flatMap((r) => {
    // A retired format is not offered: the card shows what can still be bought or awaited.
    const offered = (byProduct.get(r.id) ?? []).filter((a) => a.status !== "R");
    const availabilities = offered.map((a) => toAvailability(r.slug, a));
    const lead = leadAvailability(format === null ? availabilities : availabilities.filter((a) => a.format === format));
    if (!lead) return [];
    const sameStatus = availabilities.filter((a) => a.comingSoon === lead.comingSoon && (format === null || a.format === format));
    const dates = sameStatus.map((a) => a.availableDate).filter((d): d is string => d !== null);
    const changes = offered.map((a) => a.next_price_at).filter((d): d is string => d !== null);
    return [
      {
        id: r.id,
        title: r.title,
        cover: productCoverPath(r.slug),
        coverPicture: coverOf(r),
        productType: r.product_type,
        topic: { name: r.topic_name, slug: r.topic_slug },
        url: lead.url,
        format: lead.format,
        priceCents: lead.listPriceCents,
        formats: [...new Set(availabilities.map((a) => a.format))],
        fromPriceCents: Math.min(...sameStatus.map((a) => a.listPriceCents)),
        comingSoon: lead.comingSoon,
        availableDate: lead.comingSoon ? (dates.sort()[0] ?? null) : null,
        pricedUntil: changes.sort()[0] ?? null,
      },
    ];
  });
}

/** The product types, topics and formats the store can be browsed by: only those that have products. */
export async function storeFilters(db: Database): Promise<StoreFilters> {
  const [types, topics, formats] = await Promise.all([
    db.selectFrom("product").select("product_type").distinct().where(stillSold).orderBy("product_type").execute(),
    db
      .selectFrom("topic")
      .select(["topic.slug", "topic.name"])
      .where("topic.id", "in", db.selectFrom("product").select("topic_id").where(stillSold))
      .orderBy("topic.name")
      .execute(),
    db
      .selectFrom("product_availability")
      .select("format")
      .distinct()
      .where("status", "!=", "R" satisfies AvailabilityStatus)
      .where("product_id", "in", db.selectFrom("product").select("id").where(stillSold))
      .execute(),
  ]);
  return {
    types: types.map((t) => ({ slug: productTypeSlug(t.product_type), name: t.product_type })),
    topics: topics.map((t) => ({ slug: t.slug, name: t.name })),
    // Sorted here, not by the database, whose collation may put "HTML" before or after "Hardcover".
    formats: formats
      .map((f) => ({ slug: productTypeSlug(f.format), name: f.format }))
      .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" })),
  };
}

/** The query values the store's listing reads; "loaded" is an old "Load more items" link's, read as nothing. */
const STORE_PARAMS = new Set(["type", "topic", "format", "q", "sort", "page", "loaded"]);

/**
 * The choices and page an address of the store asks for (?type, topic and format by slug, q,
 * sort, page). Undefined when it names a type, topic or format the store does not have; an
 * unknown order is the default, keywords are normalised as search's are, and a page that is not a
 * number is the first. `redirect` is where to send an address that does not say its choices as
 * `path` does (an empty "All" field, the default order, an old `loaded`), other query values kept.
 */
export function readStoreAddress(
  params: URLSearchParams,
  filters: StoreFilters,
): { choices: StoreChoices; page: number; path: string; redirect: string | null } | undefined {
  // An empty value is the form's "All" choice; anything else must be one the store has.
  const pick = (options: StoreOption[], name: string) => {
    const slug = params.get(name);
    return slug ? options.find((o) => o.slug === slug) : null;
  };
  const type = pick(filters.types, "type");
  const topic = pick(filters.topics, "topic");
  const format = pick(filters.formats, "format");
  if (type === undefined || topic === undefined || format === undefined) return undefined;
  const sort = params.get("sort");
  const choices: StoreChoices = {
    type,
    topic,
    format,
    q: normaliseQuery(params.get("q")),
    sort: isStoreSort(sort) ? sort : DEFAULT_STORE_SORT,
  };
  const { page } = parsePaging(params, false);
  const path = storeChoicesPath(choices, page);
  const canonical = new URLSearchParams(path.split("?")[1]);
  const asked = [...params].filter(([name]) => STORE_PARAMS.has(name));
  if (new URLSearchParams(asked).toString() === canonical.toString()) return { choices, page, path, redirect: null };
  for (const [name, value] of params) if (!STORE_PARAMS.has(name)) canonical.append(name, value);
  const query = canonical.toString();
  return { choices, page, path, redirect: query ? `/store?${query}` : "/store" };
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
    .where(stillSold)
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

/** A keyword is looked for in these, each word anywhere in any of them, ignoring case. */
const KEYWORD_COLUMNS = ["product.title", "product.summary", "product.description", "product.authors"] as const;

/** `column` holds `word`: LIKE, with the word's own % and _ taken literally. */
const holds = (column: (typeof KEYWORD_COLUMNS)[number], word: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${word.replace(/[\\%_]/g, "\\$&")}%`} escape '\\'`;

/**
 * The price a card shows (ProductCard.fromPriceCents), as a column: the lowest price in force at
 * `now` among the formats on sale, or, with none on sale, among those coming soon; of `format`
 * alone when one was chosen.
 */
function shownPrice(eb: ExpressionBuilder<DB, "product">, format: string | null, now: Date) {
  const lowest = (status: AvailabilityStatus) => {
    let q = eb
      .selectFrom("product_availability as a")
      .select((a) => a.fn.min(priceInForce("a", now)).as("cents"))
      .whereRef("a.product_id", "=", "product.id")
      .where("a.status", "=", status);
    if (format !== null) q = q.where("a.format", "=", format);
    return q;
  };
  return eb.fn.coalesce(lowest("A" satisfies AvailabilityStatus), lowest("F" satisfies AvailabilityStatus));
}

/**
 * A page of the store's listing: the products that have the chosen type, topic and format (one
 * not retired) and hold every keyword, in the chosen order (newest first between equals), priced
 * at `now`. A page past the end is empty.
 */
export async function storePage(db: Database, choices: StoreChoices, page: number, now = new Date()): Promise<StorePage> {
  const format = choices.format?.name ?? null;
  let q = productCardQuery(db);
  if (choices.type !== null) q = q.where("product.product_type", "=", choices.type.name);
  if (choices.topic !== null) q = q.where("topic.slug", "=", choices.topic.slug);
  if (format !== null)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("product_availability as f")
          .select("f.id")
          .whereRef("f.product_id", "=", "product.id")
          .where("f.format", "=", format)
          .where("f.status", "!=", "R" satisfies AvailabilityStatus),
      ),
    );
  const words = [...new Set(choices.q.toLowerCase().split(" ").filter(Boolean))];
  if (words.length > 0) q = q.where((eb) => eb.and(words.map((word) => eb.or(KEYWORD_COLUMNS.map((column) => holds(column, word))))));

  let ordered = q;
  if (choices.sort === "price-low" || choices.sort === "price-high")
    ordered = ordered.orderBy((eb) => shownPrice(eb, format, now), choices.sort === "price-low" ? "asc" : "desc");
  else if (choices.sort === "title") ordered = ordered.orderBy((eb) => eb.fn("lower", ["product.title"]));
  const [{ n }, rows] = await Promise.all([
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
    ordered
      .orderBy("product.published", "desc")
      .orderBy("product.id", "desc")
      .limit(STORE_PAGE_SIZE)
      .offset((page - 1) * STORE_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(n);
  return {
    entries: await toCards(db, rows, now, format),
    page: { number: page, last: lastPage(total, STORE_PAGE_SIZE), size: STORE_PAGE_SIZE, total },
  };
}

async function productWhere(
  db: Database,
  column: "product.id" | "product.slug",
  value: number | string,
  now: Date,
): Promise<ProductPage | undefined> {
  const row = await db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .leftJoin("image as cover", "cover.id", "product.cover_image_id")
    .selectAll("product")
    .select(["topic.name as topic_name", "topic.slug as topic_slug"])
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height", "cover.alt as cover_alt"])
    .where(column, "=", value)
    .executeTakeFirst();
  if (!row) return undefined;
  const availabilities = (await availabilitiesOf(db, [row.id], now)).map((a) => toAvailability(row.slug, a));
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
    coverPicture: coverOf(row),
    retired: availabilities.length > 0 && availabilities.every((a) => a.retired),
    availabilities,
    contents: [...sections.map((s) => ({ title: s.title, url: null })), ...articles.map((a) => ({ title: a.title, url: articlePath(a) }))],
  };
}

/** The product a slug names, with every availability in catalogue order, priced at `now`. */
export const productBySlug = (db: Database, slug: string, now = new Date()) => productWhere(db, "product.slug", slug, now);

/** The product behind the short form /product/{id}. */
export const productById = (db: Database, id: number, now = new Date()) => productWhere(db, "product.id", id, now);

/** Products on sale now, those on topicId first, then the newest; productId left out. */
async function onSaleTopicFirst(
  db: Database,
  topicId: number | null,
  leaveOut: number | null,
  limit: number,
  now: Date,
): Promise<ProductCard[]> {
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
  return toCards(db, rows, now);
}

/**
 * "You might also like": other products on sale now, those on the same topic as productId
 * (a product id, as CartLine.productId, not an availability id) first, then the newest.
 */
export async function recommendationsFor(db: Database, productId: number, limit: number, now = new Date()): Promise<ProductCard[]> {
  const product = await db.selectFrom("product").select("topic_id").where("id", "=", productId).executeTakeFirst();
  return onSaleTopicFirst(db, product?.topic_id ?? null, productId, limit, now);
}

/** The product an article's promo shows: one on sale on the article's topic if any, else the newest on sale. */
export async function promoProduct(db: Database, topicId: number, now = new Date()): Promise<ProductCard | undefined> {
  return (await onSaleTopicFirst(db, topicId, null, 1, now))[0];
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
