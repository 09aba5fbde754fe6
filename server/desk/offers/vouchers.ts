import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { dayEnds, dayStarts, type VoucherEdit, type VoucherFields } from "~/shared/offer-fields";
import { recordAudit } from "../audit";
import { changes, type Editor, type LastSave, type SaveResult } from "../catalogue/common";
import { offerState } from "./promo-codes";
import { offerUses, type OfferState, type OfferUse } from "./uses";

// Vouchers at the desk (issue 39, ADR 091): a code that gives one format of a product at no
// charge, from when until when, to how many orders in all (one, for a gift) and per reader. A
// voucher can be disabled and enabled again. Redeeming enforces all of it (server/store/vouchers.ts)
// under the voucher's row lock. Edits name the version they read; every change is audited.

export interface VoucherItem {
  availabilityId: number;
  /** "Title (Format, Language)". */
  label: string;
}

export interface DeskVoucher extends LastSave {
  code: string;
  item: VoucherItem;
  startsOn: string | null;
  endsOn: string | null;
  maxUses: number;
  maxUsesPerReader: number | null;
  disabledAt: string | null;
  standingUses: number;
  state: OfferState;
}

export type VoucherListing = Omit<DeskVoucher, "version" | "updatedAt" | "updatedBy" | "maxUsesPerReader" | "disabledAt">;

const CODE_TAKEN = "Another voucher is called this: choose another.";
const UNKNOWN_ITEM = "Choose a format from the list: that one does not exist.";

const itemLabel = (r: { title: string; format: string; language: string }) => `${r.title} (${r.format}, ${r.language})`;

/** The formats a voucher may give: every one not retired, by product title. */
export async function voucherItems(db: Database): Promise<VoucherItem[]> {
  const rows = await db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select(["a.id", "a.format", "a.language", "p.title"])
    .where("a.status", "!=", "R")
    .orderBy("p.title")
    .orderBy("a.id")
    .execute();
  return rows.map((r) => ({ availabilityId: r.id, label: itemLabel(r) }));
}

function voucherRows(db: Database) {
  return db
    .selectFrom("voucher as v")
    .innerJoin("product_availability as a", "a.id", "v.availability_id")
    .innerJoin("product as p", "p.id", "a.product_id")
    .selectAll("v")
    .select(["a.format", "a.language", "p.title"])
    .select((eb) =>
      eb
        .selectFrom("voucher_use as u")
        .select(sql<number>`count(*)`.as("n"))
        .whereRef("u.code", "=", "v.code")
        .where("u.released_at", "is", null)
        .as("standing"),
    );
}

type VoucherRow = Awaited<ReturnType<ReturnType<typeof voucherRows>["executeTakeFirstOrThrow"]>>;

function toVoucher(r: VoucherRow, now: Date): DeskVoucher {
  const uses = Number(r.standing ?? 0);
  return {
    code: r.code,
    item: { availabilityId: r.availability_id, label: itemLabel(r) },
    startsOn: r.starts_at?.slice(0, 10) ?? null,
    endsOn: r.ends_at?.slice(0, 10) ?? null,
    maxUses: r.max_uses,
    maxUsesPerReader: r.max_uses_per_reader,
    disabledAt: r.disabled_at,
    standingUses: uses,
    state: offerState(r, uses, now),
    version: r.version,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by_name,
  };
}

/** One page of vouchers, by code, with words in the code or the item's title; and how many match. */
export async function listDeskVouchers(
  db: Database,
  query: { q?: string; page: number; pageSize: number },
  now = new Date(),
): Promise<{ total: number; items: VoucherListing[] }> {
  let rows = voucherRows(db);
  let count = db
    .selectFrom("voucher as v")
    .innerJoin("product_availability as a", "a.id", "v.availability_id")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select((eb) => eb.fn.countAll<number>().as("n"));
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = sql<boolean>`(lower(v.code) like ${pattern} escape '\\' or lower(p.title) like ${pattern} escape '\\')`;
    rows = rows.where(match);
    count = count.where(match);
  }
  const [found, n] = await Promise.all([
    rows
      .orderBy("v.code")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { total: Number(n.n), items: found.map((r) => toVoucher(r, now)) };
}

export async function getDeskVoucher(db: Database, code: string, now = new Date()): Promise<DeskVoucher | undefined> {
  const row = await voucherRows(db).where("v.code", "=", code).executeTakeFirst();
  return row && toVoucher(row, now);
}

export const voucherUsesOf = (db: Database, code: string, limit = 100): Promise<{ total: number; uses: OfferUse[] }> =>
  offerUses(db, "voucher_use", code, limit);

type Audited = { availabilityId: number; startsOn: string | null; endsOn: string | null; maxUses: number; maxUsesPerReader: number | null };

const auditedOf = (v: DeskVoucher): Audited => ({
  availabilityId: v.item.availabilityId,
  startsOn: v.startsOn,
  endsOn: v.endsOn,
  maxUses: v.maxUses,
  maxUsesPerReader: v.maxUsesPerReader,
});

const auditedFields = (f: VoucherFields | VoucherEdit): Audited => ({
  availabilityId: f.availability,
  startsOn: f.startsOn ?? null,
  endsOn: f.endsOn ?? null,
  maxUses: f.maxUses,
  maxUsesPerReader: f.maxUsesPerReader ?? null,
});

const columns = (a: Audited) => ({
  availability_id: a.availabilityId,
  starts_at: a.startsOn === null ? null : dayStarts(a.startsOn),
  // The last moment of its last day, as a promo code's expiry.
  ends_at: a.endsOn === null ? null : dayEnds(a.endsOn),
  max_uses: a.maxUses,
  max_uses_per_reader: a.maxUsesPerReader,
});

async function itemExists(tx: Database, availabilityId: number): Promise<boolean> {
  return Boolean(
    await tx.selectFrom("product_availability").select("id").where("id", "=", availabilityId).where("status", "!=", "R").executeTakeFirst(),
  );
}

export async function createVoucher(db: Database, editor: Editor, fields: VoucherFields, now: Date): Promise<SaveResult<DeskVoucher>> {
  const values = auditedFields(fields);
  try {
    return await db.transaction().execute(async (tx): Promise<SaveResult<DeskVoucher>> => {
      if (await tx.selectFrom("voucher").select("code").where("code", "=", fields.code).executeTakeFirst())
        return { ok: false, reason: "invalid", fields: { code: [CODE_TAKEN] } };
      if (!(await itemExists(tx, values.availabilityId))) return { ok: false, reason: "invalid", fields: { availability: [UNKNOWN_ITEM] } };
      await tx
        .insertInto("voucher")
        .values({
          code: fields.code,
          ...columns(values),
          redeemed_by: null,
          redeemed_at: null,
          order_id: null,
          version: 1,
          updated_at: now.toISOString(),
          updated_by_name: editor.name,
          disabled_at: null,
        })
        .execute();
      await recordAudit(tx, { actor: editor.actor, action: "voucher.create", subject: `voucher:${fields.code}`, after: values }, now);
      return { ok: true, value: (await getDeskVoucher(tx, fields.code, now))!, changed: true };
    });
  } catch (error) {
    if (await db.selectFrom("voucher").select("code").where("code", "=", fields.code).executeTakeFirst())
      return { ok: false, reason: "invalid", fields: { code: [CODE_TAKEN] } };
    throw error;
  }
}

export async function saveVoucher(
  db: Database,
  editor: Editor,
  code: string,
  change: VoucherEdit,
  now: Date,
): Promise<SaveResult<DeskVoucher>> {
  return db.transaction().execute(async (tx): Promise<SaveResult<DeskVoucher>> => {
    const current = await getDeskVoucher(tx, code, now);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== change.version) return { ok: false, reason: "stale", current };
    const next = auditedFields(change);
    const diff = changes(auditedOf(current), next);
    if (!diff) return { ok: true, value: current, changed: false };
    if (diff.after.availabilityId !== undefined && !(await itemExists(tx, next.availabilityId)))
      return { ok: false, reason: "invalid", fields: { availability: [UNKNOWN_ITEM] } };
    const updated = await tx
      .updateTable("voucher")
      .set((eb) => ({ ...columns(next), version: eb("version", "+", 1), updated_at: now.toISOString(), updated_by_name: editor.name }))
      .where("code", "=", code)
      .where("version", "=", change.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getDeskVoucher(tx, code, now))! };
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "voucher.save",
        subject: `voucher:${code}`,
        before: { version: current.version, ...diff.before },
        after: { version: current.version + 1, ...diff.after },
      },
      now,
    );
    return { ok: true, value: (await getDeskVoucher(tx, code, now))!, changed: true };
  });
}

/** Disables a voucher (it can no longer be redeemed; orders made with it stand) or enables it again. */
export async function setVoucherDisabled(
  db: Database,
  editor: Editor,
  code: string,
  disabled: boolean,
  now: Date,
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: "not-found" }> {
  return db.transaction().execute(async (tx) => {
    let query = tx.selectFrom("voucher").select(["code", "disabled_at"]).where("code", "=", code);
    if (isPostgres(tx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return { ok: false as const, reason: "not-found" as const };
    if ((row.disabled_at !== null) === disabled) return { ok: true as const, changed: false };
    await tx
      .updateTable("voucher")
      .set({ disabled_at: disabled ? now.toISOString() : null })
      .where("code", "=", code)
      .execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: disabled ? "voucher.disable" : "voucher.enable",
        subject: `voucher:${code}`,
        before: { disabledAt: row.disabled_at },
        after: { disabledAt: disabled ? now.toISOString() : null },
      },
      now,
    );
    return { ok: true as const, changed: true };
  });
}
