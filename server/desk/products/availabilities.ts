import crypto from "node:crypto";
import type { ImageStorage } from "~/server/adapters/image-storage";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { deleteMediaFile, mediaFile, type MediaFile } from "~/server/media";
import { priceSchedule, type PriceSchedule } from "~/server/store/prices";
import type { AvailabilityEdit, AvailabilityFields, AvailabilityState, PreorderCharge } from "~/shared/product-fields";
import { isDigitalCode, type LineType } from "~/shared/product-types";
import { productPath } from "~/shared/urls";
import { recordAudit } from "../audit";
import { changes, type Editor, type LastSave, type SaveResult } from "../catalogue/common";
import { attachedFile, auditedFile, type AttachedFile } from "../media/files";
import { inProductTransaction, nextCatalogueId, productChanged, STATE_OF, STATUS_OF } from "./products";

// A product's formats at the desk (ADR 091): each availability's format, code, line type and
// language, its status (on sale, coming soon from a date, or retired), its flags, its prices over
// time, and a digital format's download file. Its price is set once, when it is added; after that
// a new price is scheduled from a moment on (now, or later), so that carts and orders see the
// price in force at their own moment and an order keeps the one it was placed at. Every change
// names the version it read where it edits fields, is audited and counts the content generation up.

export interface DeskAvailability extends LastSave {
  id: number;
  productId: number;
  productTitle: string;
  productSlug: string;
  format: string;
  code: string;
  lineType: LineType;
  language: string;
  state: AvailabilityState;
  availableDate: string | null;
  /** When its pre-orders are charged (ADR 092). */
  preorderCharge: PreorderCharge;
  permissionsAvailable: boolean;
  volumePricing: boolean;
  /** Its page on the site. */
  path: string;
  /** Sold as a download: it may have an uploaded file. */
  digital: boolean;
  prices: PriceSchedule;
  /** The uploaded file buyers download, if any (else the one made from the product's texts). */
  file: AttachedFile | null;
}

const NOT_DIGITAL = "Only a digital format has a download file.";
export const PAST_START = "Enter a time from now on, in UTC, or leave it empty for now.";

/** One of a product's formats, as its desk page shows it, at `now`; undefined unless it is that product's. */
export async function getDeskAvailability(
  db: Database,
  productId: number,
  availabilityId: number,
  now = new Date(),
): Promise<DeskAvailability | undefined> {
  const row = await db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .selectAll("a")
    .select(["p.title as product_title", "p.slug as product_slug"])
    .where("a.id", "=", availabilityId)
    .where("a.product_id", "=", productId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [prices, file] = await Promise.all([
    priceSchedule(db, availabilityId, now),
    row.download_file_id ? mediaFile(db, row.download_file_id) : Promise.resolve(undefined),
  ]);
  return {
    id: row.id,
    productId: row.product_id,
    productTitle: row.product_title,
    productSlug: row.product_slug,
    format: row.format,
    code: row.code,
    lineType: row.line_type,
    language: row.language,
    state: STATE_OF[row.status],
    availableDate: row.available_date,
    preorderCharge: row.preorder_charge,
    permissionsAvailable: row.permissions_available === 1,
    volumePricing: row.volume_pricing === 1,
    path: productPath({ slug: row.product_slug, availabilityId: row.id }),
    digital: isDigitalCode(row.code),
    prices: prices!,
    file: file ? attachedFile(file) : null,
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
  };
}

type Audited = {
  format: string;
  code: string;
  lineType: LineType;
  language: string;
  state: AvailabilityState;
  availableDate: string | null;
  preorderCharge: PreorderCharge;
  permissionsAvailable: boolean;
  volumePricing: boolean;
};

const audited = (a: Audited): Audited => ({
  format: a.format,
  code: a.code,
  lineType: a.lineType,
  language: a.language,
  state: a.state,
  // Only a coming-soon format has a date.
  availableDate: a.state === "coming-soon" ? a.availableDate : null,
  preorderCharge: a.preorderCharge,
  permissionsAvailable: a.permissionsAvailable,
  volumePricing: a.volumePricing,
});

const columns = (a: Audited) => ({
  format: a.format,
  code: a.code,
  line_type: a.lineType,
  language: a.language,
  status: STATUS_OF[a.state],
  available_date: a.availableDate,
  preorder_charge: a.preorderCharge,
  permissions_available: a.permissionsAvailable ? (1 as const) : (0 as const),
  volume_pricing: a.volumePricing ? (1 as const) : (0 as const),
});

/** A product's row held for the change's transaction (so two changes of its formats take turns); undefined for none. */
async function holdProduct(tx: Database, productId: number) {
  let query = tx.selectFrom("product").select(["id", "slug", "title"]).where("id", "=", productId);
  if (isPostgres(tx)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A new format of a product, at version 1, with its list price. Readers see it at once. */
export async function createAvailability(
  db: Database,
  editor: Editor,
  productId: number,
  fields: AvailabilityFields,
  now: Date,
): Promise<SaveResult<DeskAvailability>> {
  return inProductTransaction<SaveResult<DeskAvailability>>(db, async (tx) => {
    const product = await holdProduct(tx, productId);
    if (!product) return { result: { ok: false, reason: "not-found" }, generation: null };
    const id = await nextCatalogueId(tx, "product_availability");
    const values = audited({ ...fields, state: fields.status, availableDate: fields.availableDate ?? null });
    await tx
      .insertInto("product_availability")
      .values({
        id,
        product_id: productId,
        ...columns(values),
        list_price_cents: fields.listPrice,
        version: 1,
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
        download_file_id: null,
      })
      .execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "availability.create",
        subject: `product:${product.slug}`,
        after: { availabilityId: id, ...values, listPriceCents: fields.listPrice },
      },
      now,
    );
    return {
      result: { ok: true, value: (await getDeskAvailability(tx, productId, id, now))!, changed: true },
      generation: await productChanged(tx, productId, now),
    };
  });
}

/**
 * Saves a format's fields over the version read: retiring it, putting it on sale, or saying when
 * it will be. Nothing changed writes nothing; a stale version writes nothing and answers what is there.
 */
export async function saveAvailability(
  db: Database,
  editor: Editor,
  productId: number,
  availabilityId: number,
  change: AvailabilityEdit,
  now: Date,
): Promise<SaveResult<DeskAvailability>> {
  return inProductTransaction<SaveResult<DeskAvailability>>(db, async (tx) => {
    const product = await holdProduct(tx, productId);
    const current = product && (await getDeskAvailability(tx, productId, availabilityId, now));
    if (!product || !current) return { result: { ok: false, reason: "not-found" }, generation: null };
    if (current.version !== change.version) return { result: { ok: false, reason: "stale", current }, generation: null };
    const next = audited({ ...change, state: change.status, availableDate: change.availableDate ?? null });
    const diff = changes(audited(current), next);
    if (!diff) return { result: { ok: true, value: current, changed: false }, generation: null };
    const updated = await tx
      .updateTable("product_availability")
      .set((eb) => ({
        ...columns(next),
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", availabilityId)
      .where("version", "=", change.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      return {
        result: { ok: false, reason: "stale", current: (await getDeskAvailability(tx, productId, availabilityId, now))! },
        generation: null,
      };
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "availability.save",
        subject: `product:${product.slug}`,
        before: { availabilityId, version: current.version, ...diff.before },
        after: { availabilityId, version: current.version + 1, ...diff.after },
      },
      now,
    );
    return {
      result: { ok: true, value: (await getDeskAvailability(tx, productId, availabilityId, now))!, changed: true },
      generation: await productChanged(tx, productId, now),
    };
  });
}

export type PriceChangeResult =
  | { ok: true; value: DeskAvailability }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "invalid"; fields: Record<string, string[]> };

/**
 * Schedules a format's price from a moment on: `startsAt` null is now. A moment already past is
 * refused (carts and orders of that moment were priced otherwise), but one within the minute just
 * gone, as a time typed to the minute is, starts now.
 */
export async function schedulePrice(
  db: Database,
  editor: Editor,
  productId: number,
  availabilityId: number,
  change: { priceCents: number; startsAt: Date | null },
  now: Date,
): Promise<PriceChangeResult> {
  let starts = change.startsAt ?? now;
  if (starts.getTime() < now.getTime()) {
    if (now.getTime() - starts.getTime() >= 60_000) return { ok: false, reason: "invalid", fields: { startsAt: [PAST_START] } };
    starts = now;
  }
  return inProductTransaction<PriceChangeResult>(db, async (tx) => {
    const product = await holdProduct(tx, productId);
    const current = product && (await getDeskAvailability(tx, productId, availabilityId, now));
    if (!product || !current) return { result: { ok: false, reason: "not-found" }, generation: null };
    const id = crypto.randomUUID();
    await tx
      .insertInto("price_change")
      .values({
        id,
        availability_id: availabilityId,
        price_cents: change.priceCents,
        starts_at: starts.toISOString(),
        created_at: now.toISOString(),
        created_by: editor.actor.label,
      })
      .execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "price.schedule",
        subject: `product:${product.slug}`,
        before: { availabilityId, priceCents: current.prices.nowCents },
        after: { availabilityId, format: current.format, priceCents: change.priceCents, startsAt: starts.toISOString(), changeId: id },
      },
      now,
    );
    return {
      result: { ok: true, value: (await getDeskAvailability(tx, productId, availabilityId, now))! },
      generation: await productChanged(tx, productId, now),
    };
  });
}

/** Takes back a price change that has not started yet; one that has started is history, and stays. */
export async function withdrawPrice(
  db: Database,
  editor: Editor,
  productId: number,
  availabilityId: number,
  changeId: string,
  now: Date,
): Promise<{ ok: true } | { ok: false; reason: "not-found" | "started" }> {
  return inProductTransaction<{ ok: true } | { ok: false; reason: "not-found" | "started" }>(db, async (tx) => {
    const product = await holdProduct(tx, productId);
    const change = product
      ? await tx
          .selectFrom("price_change")
          .select(["id", "price_cents", "starts_at"])
          .where("id", "=", changeId)
          .where("availability_id", "=", availabilityId)
          .executeTakeFirst()
      : undefined;
    if (!product || !change) return { result: { ok: false, reason: "not-found" }, generation: null };
    if (change.starts_at <= now.toISOString()) return { result: { ok: false, reason: "started" }, generation: null };
    await tx.deleteFrom("price_change").where("id", "=", changeId).execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "price.withdraw",
        subject: `product:${product.slug}`,
        before: { availabilityId, priceCents: change.price_cents, startsAt: change.starts_at, changeId },
      },
      now,
    );
    return { result: { ok: true }, generation: await productChanged(tx, productId, now) };
  });
}

export type FileChange =
  { ok: true; value: DeskAvailability } | { ok: false; reason: "not-found" } | { ok: false; reason: "not-digital"; message: string };

/**
 * Makes an uploaded file what buyers of a digital format download, in place of the file made from
 * the product's texts or an earlier upload (which is then deleted). Buyers who ordered before get
 * the new file from their order's link too.
 */
export async function setAvailabilityFile(
  db: Database,
  storage: ImageStorage,
  editor: Editor,
  productId: number,
  availabilityId: number,
  file: MediaFile,
  now: Date,
): Promise<FileChange> {
  const done = await inProductTransaction<{ ok: true; before: string | null } | { ok: false; reason: "not-found" | "not-digital" }>(
    db,
    async (tx) => {
      const product = await holdProduct(tx, productId);
      const row = product
        ? await tx
            .selectFrom("product_availability")
            .select(["id", "code", "format", "download_file_id"])
            .where("id", "=", availabilityId)
            .where("product_id", "=", productId)
            .executeTakeFirst()
        : undefined;
      if (!product || !row) return { result: { ok: false, reason: "not-found" }, generation: null };
      if (!isDigitalCode(row.code)) return { result: { ok: false, reason: "not-digital" }, generation: null };
      const before = row.download_file_id;
      await tx.updateTable("product_availability").set({ download_file_id: file.id }).where("id", "=", availabilityId).execute();
      const previous = before ? await mediaFile(tx, before) : undefined;
      await recordAudit(
        tx,
        {
          actor: editor.actor,
          action: "availability.file",
          subject: `product:${product.slug}`,
          before: { availabilityId, file: auditedFile(previous ? attachedFile(previous) : null) },
          after: { availabilityId, format: row.format, file: auditedFile(attachedFile(file)) },
        },
        now,
      );
      return { result: { ok: true, before }, generation: null };
    },
  );
  if (!done.ok)
    return done.reason === "not-digital" ? { ok: false, reason: "not-digital", message: NOT_DIGITAL } : { ok: false, reason: "not-found" };
  if (done.before && done.before !== file.id) await deleteMediaFile(db, storage, done.before);
  return { ok: true, value: (await getDeskAvailability(db, productId, availabilityId, now))! };
}
