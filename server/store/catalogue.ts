import type { ExpressionBuilder } from "kysely";
import type { Database } from "~/server/db/connection";
import type { AvailabilityStatus, DB, LineType } from "~/server/db/schema";
import { imageSources, type ImageSources } from "~/shared/uploaded-images";
import { lastPage, type Paging } from "~/shared/pagination";
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

async function toCards(db: Database, rows: CardRow[], now: Date): Promise<ProductCard[]> {
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
    const lead = leadAvailability(availabilities);
    if (!lead) return [];
    const sameStatus = availabilities.filter((a) => a.comingSoon === lead.comingSoon);
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

/** The product types and topics the store can be browsed by: only those that have products. */
export async function storeFilters(db: Database): Promise<StoreFilters> {
  const [types, topics] = await Promise.all([
    db.selectFrom("product").select("product_type").distinct().where(stillSold).orderBy("product_type").execute(),
    db
      .selectFrom("topic")
      .select(["topic.slug", "topic.name"])
      .where("topic.id", "in", db.selectFrom("product").select("topic_id").where(stillSold))
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

/**
 * Pages page..page+loaded-1 of the store, newest first, filtered by product type (its name)
 * and topic (its slug). A page past the end is empty.
 */
export async function storePage(
  db: Database,
  filter: { type: string | null; topicSlug: string | null },
  paging: Paging,
  now = new Date(),
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
    entries: await toCards(db, rows, now),
    page: { number: paging.page, loaded: paging.loaded, last: lastPage(total, STORE_PAGE_SIZE), size: STORE_PAGE_SIZE, total },
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
