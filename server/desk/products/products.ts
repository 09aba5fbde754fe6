import { sql } from "kysely";
import { bumpContentGeneration, noteContentChanged } from "~/server/content/content-generation";
import type { Database } from "~/server/db/connection";
import type { AvailabilityStatus } from "~/server/db/schema";
import { isPostgres } from "~/server/db/dialect";
import { reindexProduct } from "~/server/search/documents";
import { coverOf } from "~/server/store/catalogue";
import { priceInForce } from "~/server/store/prices";
import type { AvailabilityState, ProductEdit, ProductFields, ProductListState } from "~/shared/product-fields";
import type { LineType } from "~/shared/product-types";
import { slugify } from "~/shared/slugs";
import type { ImageSources } from "~/shared/uploaded-images";
import { productPath } from "~/shared/urls";
import { recordAudit } from "../audit";
import { changes, containsText, type Editor, type LastSave, type Listing, type SaveResult } from "../catalogue/common";

// The store's products at the desk (issue 39, ADR 091): their fields, and the formats they are
// sold in (availabilities.ts). A product's slug names its pages and its drawn cover, so it is made
// once, with the product, and never changes. Every save names the version it read, and a stale
// one writes nothing; every change is audited, re-indexed for search and counts the content
// generation up in its transaction, since the store and the articles' promos show products at once.

export const STATE_OF: Record<AvailabilityStatus, AvailabilityState> = { A: "on-sale", F: "coming-soon", R: "retired" };
export const STATUS_OF: Record<AvailabilityState, AvailabilityStatus> = { "on-sale": "A", "coming-soon": "F", retired: "R" };

export interface DeskAvailabilitySummary {
  id: number;
  format: string;
  code: string;
  lineType: LineType;
  language: string;
  state: AvailabilityState;
  availableDate: string | null;
  /** In force at the moment read. */
  priceCents: number;
  /** A change scheduled after that moment, if any: the earliest. */
  nextPrice: { priceCents: number; startsAt: string } | null;
  path: string;
  hasFile: boolean;
}

export interface DeskProduct extends LastSave {
  id: number;
  slug: string;
  title: string;
  productType: string;
  /** The topic's name. */
  topic: string;
  authors: string[];
  summary: string;
  description: string;
  published: string;
  pages: number;
  /** An uploaded cover, as the sources a page shows it by. */
  cover: ImageSources | null;
  availabilities: DeskAvailabilitySummary[];
  /** Its lead format's page on the site; null before it has a format. */
  path: string | null;
}

export interface ProductListing {
  id: number;
  slug: string;
  title: string;
  productType: string;
  topic: string;
  published: string;
  formats: number;
  state: ProductListState;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface ProductChoices {
  topics: string[];
}

const SLUG_TAKEN = "Another product has this slug: choose another.";
const NO_SLUG = "The title makes no slug: enter one.";

/** The topics a product may be filed under, for the desk's forms. */
export async function productChoices(db: Database): Promise<ProductChoices> {
  const topics = await db.selectFrom("topic").select("name").orderBy("name").execute();
  return { topics: topics.map((t) => t.name) };
}

const has = (status: AvailabilityStatus) =>
  sql<boolean>`exists (select 1 from product_availability pa where pa.product_id = product.id and pa.status = ${status})`;
const hasAny = sql<boolean>`exists (select 1 from product_availability pa where pa.product_id = product.id)`;

/** What the listing says of a product: on sale if any format is, else coming soon, else retired (or no formats yet). */
const stateColumn = sql<ProductListState>`case when ${has("A")} then 'on-sale' when ${has("F")} then 'coming-soon' when ${hasAny} then 'retired' else 'no-formats' end`;

function matching(db: Database, query: { q?: string; status?: ProductListState }) {
  let select = db.selectFrom("product").innerJoin("topic", "topic.id", "product.topic_id");
  if (query.q)
    select = select.where((eb) => containsText([eb.ref("product.title"), eb.ref("product.slug"), eb.ref("product.authors")], query.q!));
  if (query.status) select = select.where(sql<boolean>`${stateColumn} = ${query.status}`);
  return select;
}

/** One page of products, newest first, of one state or every one, and how many match in all. */
export async function listDeskProducts(
  db: Database,
  query: { q?: string; status?: ProductListState; page: number; pageSize: number },
): Promise<Listing<ProductListing>> {
  const [rows, count] = await Promise.all([
    matching(db, query)
      .select([
        "product.id",
        "product.slug",
        "product.title",
        "product.product_type",
        "product.published",
        "product.updated_at",
        "product.updated_by_name",
        "topic.name as topic",
        stateColumn.as("state"),
        sql<number>`(select count(*) from product_availability pa where pa.product_id = product.id)`.as("formats"),
      ])
      .orderBy("product.published", "desc")
      .orderBy("product.id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      productType: r.product_type,
      topic: r.topic,
      published: r.published,
      formats: Number(r.formats),
      state: r.state,
      updatedAt: r.updated_at,
      updatedBy: r.updated_by_name,
    })),
  };
}

/** A product with its formats in catalogue order, priced at `now`; undefined for an unknown id. */
export async function getDeskProduct(db: Database, id: number, now = new Date()): Promise<DeskProduct | undefined> {
  const row = await db
    .selectFrom("product")
    .innerJoin("topic", "topic.id", "product.topic_id")
    .leftJoin("image as cover", "cover.id", "product.cover_image_id")
    .selectAll("product")
    .select("topic.name as topic")
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height", "cover.alt as cover_alt"])
    .where("product.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const at = now.toISOString();
  const formats = await db
    .selectFrom("product_availability as a")
    .select(["a.id", "a.format", "a.code", "a.line_type", "a.language", "a.status", "a.available_date", "a.download_file_id"])
    .select(priceInForce("a", now).as("price_cents"))
    .where("a.product_id", "=", id)
    .orderBy("a.id")
    .execute();
  const upcoming = formats.length
    ? await db
        .selectFrom("price_change")
        .select(["availability_id", "price_cents", "starts_at"])
        .where(
          "availability_id",
          "in",
          formats.map((a) => a.id),
        )
        .where("starts_at", ">", at)
        .orderBy("starts_at")
        .orderBy("created_at")
        .execute()
    : [];
  const availabilities = formats.map((a): DeskAvailabilitySummary => {
    const next = upcoming.find((c) => c.availability_id === a.id);
    return {
      id: a.id,
      format: a.format,
      code: a.code,
      lineType: a.line_type,
      language: a.language,
      state: STATE_OF[a.status],
      availableDate: a.available_date,
      priceCents: Number(a.price_cents),
      nextPrice: next ? { priceCents: next.price_cents, startsAt: next.starts_at } : null,
      path: productPath({ slug: row.slug, availabilityId: a.id }),
      hasFile: a.download_file_id !== null,
    };
  });
  const lead = availabilities.find((a) => a.state === "on-sale") ?? availabilities.find((a) => a.state !== "retired") ?? availabilities[0];
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    productType: row.product_type,
    topic: row.topic,
    authors: row.authors.split(", ").filter(Boolean),
    summary: row.summary,
    description: row.description,
    published: row.published,
    pages: row.pages,
    cover: coverOf(row),
    availabilities,
    path: lead?.path ?? null,
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
  };
}

type Audited = Pick<DeskProduct, "title" | "productType" | "topic" | "authors" | "summary" | "description" | "published" | "pages">;

const audited = (p: Audited): Audited => ({
  title: p.title,
  productType: p.productType,
  topic: p.topic,
  authors: p.authors,
  summary: p.summary,
  description: p.description,
  published: p.published,
  pages: p.pages,
});

/** The topic named, as the database has it; a field error when there is none. */
async function findTopic(tx: Database, name: string): Promise<{ id: number; name: string } | undefined> {
  return tx
    .selectFrom("topic")
    .select(["id", "name"])
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirst();
}

/**
 * What readers see changed: the product's search entry, and every instance's caches (the store's
 * pages read the database each time; articles' promos are kept until the generation moves).
 */
export async function productChanged(tx: Database, id: number, now: Date): Promise<number> {
  await reindexProduct(tx, id);
  return bumpContentGeneration(tx, now);
}

/** Runs a change in a transaction, and notes the content generation it reached once committed. */
export async function inProductTransaction<T>(
  db: Database,
  work: (tx: Database) => Promise<{ result: T; generation: number | null }>,
): Promise<T> {
  const { result, generation } = await db.transaction().execute(work);
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

/** The next id of a catalogue table, the seed's ids continuing; on PostgreSQL two new rows at once take turns. */
export async function nextCatalogueId(tx: Database, table: "product" | "product_availability"): Promise<number> {
  if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`${table}:ids`}, 0))`.execute(tx);
  const row = await tx
    .selectFrom(table)
    .select((eb) => eb.fn.max("id").as("max"))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** A new product, at version 1, without formats yet (readers see it once it has one). */
export async function createProduct(db: Database, editor: Editor, fields: ProductFields, now: Date): Promise<SaveResult<DeskProduct>> {
  const slug = fields.slug ?? slugify(fields.title);
  if (!slug) return { ok: false, reason: "invalid", fields: { slug: [NO_SLUG] } };
  return inProductTransaction<SaveResult<DeskProduct>>(db, async (tx) => {
    const id = await nextCatalogueId(tx, "product");
    const topic = await findTopic(tx, fields.topic);
    const taken = await tx.selectFrom("product").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!topic || taken)
      return {
        result: {
          ok: false,
          reason: "invalid",
          fields: { ...(topic ? {} : { topic: [`No topic is named "${fields.topic}".`] }), ...(taken ? { slug: [SLUG_TAKEN] } : {}) },
        },
        generation: null,
      };
    await tx
      .insertInto("product")
      .values({
        id,
        slug,
        title: fields.title,
        product_type: fields.productType,
        topic_id: topic.id,
        authors: fields.authors.join(", "),
        summary: fields.summary,
        description: fields.description,
        published: fields.published,
        pages: fields.pages,
        version: 1,
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
        cover_image_id: null,
      })
      .execute();
    const product = (await getDeskProduct(tx, id, now))!;
    await recordAudit(
      tx,
      { actor: editor.actor, action: "product.create", subject: `product:${slug}`, after: { slug, ...audited(product) } },
      now,
    );
    return { result: { ok: true, value: product, changed: true }, generation: await productChanged(tx, id, now) };
  });
}

/**
 * Saves a product's fields over the version read. Nothing changed writes nothing (no new version,
 * no audit row); a version that is not the product's now writes nothing either and answers what is there.
 */
export async function saveProduct(
  db: Database,
  editor: Editor,
  id: number,
  change: ProductEdit,
  now: Date,
): Promise<SaveResult<DeskProduct>> {
  return inProductTransaction<SaveResult<DeskProduct>>(db, async (tx) => {
    const current = await getDeskProduct(tx, id, now);
    if (!current) return { result: { ok: false, reason: "not-found" }, generation: null };
    if (current.version !== change.version) return { result: { ok: false, reason: "stale", current }, generation: null };
    const topic = await findTopic(tx, change.topic);
    if (!topic)
      return { result: { ok: false, reason: "invalid", fields: { topic: [`No topic is named "${change.topic}".`] } }, generation: null };
    const next: Audited = { ...audited({ ...change, topic: topic.name }) };
    const diff = changes(audited(current), next);
    if (!diff) return { result: { ok: true, value: current, changed: false }, generation: null };
    const updated = await tx
      .updateTable("product")
      .set((eb) => ({
        title: next.title,
        product_type: next.productType,
        topic_id: topic.id,
        authors: next.authors.join(", "),
        summary: next.summary,
        description: next.description,
        published: next.published,
        pages: next.pages,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", id)
      .where("version", "=", change.version)
      .executeTakeFirst();
    // Another save took this version between the read and the write (PostgreSQL waits for it).
    if (Number(updated.numUpdatedRows) === 0)
      return { result: { ok: false, reason: "stale", current: (await getDeskProduct(tx, id, now))! }, generation: null };
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "product.save",
        subject: `product:${current.slug}`,
        before: { version: current.version, ...diff.before },
        after: { version: current.version + 1, ...diff.after },
      },
      now,
    );
    return {
      result: { ok: true, value: (await getDeskProduct(tx, id, now))!, changed: true },
      generation: await productChanged(tx, id, now),
    };
  });
}
