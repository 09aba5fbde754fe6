import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { dayEnds, dayStarts, type PromoEdit, type PromoFields } from "~/shared/offer-fields";
import { recordAudit } from "../audit";
import { changes, type Editor, type LastSave, type SaveResult } from "../catalogue/common";
import { offerUses, type OfferState, type OfferUse } from "./uses";

// Promo codes at the desk (issue 39, ADR 091): what a code takes off (a percentage or an amount),
// of what (every item, a product type, chosen products), from when until when, and how often (in
// all, and per reader). A code can be disabled and enabled again. The checkout enforces all of it
// (server/store/promo.ts), taking each use in the order's own transaction. Edits name the version
// they read; every change is audited. Codes are only seen at checkout, so no page cache is touched.

export interface DeskPromo extends LastSave {
  code: string;
  description: string;
  percentOff: number | null;
  amountOffCents: number | null;
  productType: string | null;
  /** Products it is limited to, with their titles; empty: no such limit. */
  products: { id: number; title: string }[];
  /** The first day it works, and the last (null: no end), as YYYY-MM-DD in UTC. */
  startsOn: string;
  endsOn: string | null;
  maxUses: number | null;
  maxUsesPerReader: number | null;
  disabledAt: string | null;
  /** Uses not given back. */
  standingUses: number;
  state: OfferState;
}

export interface PromoListing {
  code: string;
  description: string;
  startsOn: string;
  endsOn: string | null;
  maxUses: number | null;
  standingUses: number;
  state: OfferState;
}

const CODE_TAKEN = "Another promo code is called this: choose another.";
const UNKNOWN_PRODUCTS = "One of the chosen products no longer exists: choose again.";

/** Whether a code works at `now`: disabled, not started, ended, used up, or active. */
export function offerState(
  row: { disabled_at: string | null; starts_at: string | null; ends_at: string | null; max_uses: number | null },
  uses: number,
  now: Date,
): OfferState {
  const at = now.toISOString();
  if (row.disabled_at !== null) return "disabled";
  if (row.starts_at !== null && row.starts_at > at) return "not-started";
  if (row.ends_at !== null && row.ends_at < at) return "ended";
  if (row.max_uses !== null && uses >= row.max_uses) return "used-up";
  return "active";
}

const standing = (db: Database) =>
  db
    .selectFrom("promo_use")
    .select(["code", (eb) => eb.fn.countAll<number>().as("n")])
    .where("released_at", "is", null)
    .groupBy("code");

/** Every promo code, the newest first. */
export async function listDeskPromos(db: Database, now = new Date()): Promise<PromoListing[]> {
  const [rows, counts] = await Promise.all([
    db.selectFrom("promo_code").selectAll().orderBy("starts_at", "desc").orderBy("code").execute(),
    standing(db).execute(),
  ]);
  const uses = new Map(counts.map((c) => [c.code, Number(c.n)]));
  return rows.map((r) => {
    const n = uses.get(r.code) ?? 0;
    return {
      code: r.code,
      description: r.description,
      startsOn: r.starts_at.slice(0, 10),
      endsOn: r.expires_at?.slice(0, 10) ?? null,
      maxUses: r.max_uses,
      standingUses: n,
      state: offerState({ ...r, ends_at: r.expires_at }, n, now),
    };
  });
}

/** A promo code as its desk page shows it; undefined for an unknown code. */
export async function getDeskPromo(db: Database, code: string, now = new Date()): Promise<DeskPromo | undefined> {
  const row = await db.selectFrom("promo_code").selectAll().where("code", "=", code).executeTakeFirst();
  if (!row) return undefined;
  const [products, count] = await Promise.all([
    db
      .selectFrom("promo_code_product as pp")
      .innerJoin("product as p", "p.id", "pp.product_id")
      .select(["p.id", "p.title"])
      .where("pp.code", "=", code)
      .orderBy("p.title")
      .execute(),
    db
      .selectFrom("promo_use")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("code", "=", code)
      .where("released_at", "is", null)
      .executeTakeFirstOrThrow(),
  ]);
  const uses = Number(count.n);
  return {
    code: row.code,
    description: row.description,
    percentOff: row.percent_off,
    amountOffCents: row.amount_off_cents,
    productType: row.product_type,
    products,
    startsOn: row.starts_at.slice(0, 10),
    endsOn: row.expires_at?.slice(0, 10) ?? null,
    maxUses: row.max_uses,
    maxUsesPerReader: row.max_uses_per_reader,
    disabledAt: row.disabled_at,
    standingUses: uses,
    state: offerState({ ...row, ends_at: row.expires_at }, uses, now),
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
  };
}

/** Who used a code, on which order, when, and whether the use was given back: the newest first. */
export const promoUsesOf = (db: Database, code: string, limit = 100): Promise<{ total: number; uses: OfferUse[] }> =>
  offerUses(db, "promo_use", code, limit);

type Audited = {
  description: string;
  percentOff: number | null;
  amountOffCents: number | null;
  productType: string | null;
  products: number[];
  startsOn: string;
  endsOn: string | null;
  maxUses: number | null;
  maxUsesPerReader: number | null;
};

const auditedOf = (p: DeskPromo): Audited => ({
  description: p.description,
  percentOff: p.percentOff,
  amountOffCents: p.amountOffCents,
  productType: p.productType,
  products: p.products.map((x) => x.id).sort((a, b) => a - b),
  startsOn: p.startsOn,
  endsOn: p.endsOn,
  maxUses: p.maxUses,
  maxUsesPerReader: p.maxUsesPerReader,
});

const auditedFields = (f: PromoEdit | PromoFields): Audited => ({
  description: f.description,
  percentOff: f.percentOff ?? null,
  amountOffCents: f.amountOff ?? null,
  productType: f.productType ?? null,
  products: [...new Set(f.products)].sort((a, b) => a - b),
  startsOn: f.startsOn,
  endsOn: f.endsOn ?? null,
  maxUses: f.maxUses ?? null,
  maxUsesPerReader: f.maxUsesPerReader ?? null,
});

const columns = (a: Audited) => ({
  description: a.description,
  percent_off: a.percentOff,
  amount_off_cents: a.amountOffCents,
  product_type: a.productType,
  starts_at: dayStarts(a.startsOn),
  expires_at: a.endsOn === null ? null : dayEnds(a.endsOn),
  max_uses: a.maxUses,
  max_uses_per_reader: a.maxUsesPerReader,
});

async function productsExist(tx: Database, ids: number[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const found = await tx.selectFrom("product").select("id").where("id", "in", ids).execute();
  return found.length === ids.length;
}

async function writeProducts(tx: Database, code: string, ids: number[]): Promise<void> {
  await tx.deleteFrom("promo_code_product").where("code", "=", code).execute();
  if (ids.length > 0)
    await tx
      .insertInto("promo_code_product")
      .values(ids.map((product_id) => ({ code, product_id })))
      .execute();
}

/** A new promo code, at version 1. */
export async function createPromo(db: Database, editor: Editor, fields: PromoFields, now: Date): Promise<SaveResult<DeskPromo>> {
  const values = auditedFields(fields);
  try {
    return await db.transaction().execute(async (tx): Promise<SaveResult<DeskPromo>> => {
      const taken = await tx.selectFrom("promo_code").select("code").where("code", "=", fields.code).executeTakeFirst();
      if (taken) return { ok: false, reason: "invalid", fields: { code: [CODE_TAKEN] } };
      if (!(await productsExist(tx, values.products))) return { ok: false, reason: "invalid", fields: { products: [UNKNOWN_PRODUCTS] } };
      await tx
        .insertInto("promo_code")
        .values({
          code: fields.code,
          ...columns(values),
          version: 1,
          updated_at: now.toISOString(),
          updated_by_name: editor.name,
          disabled_at: null,
        })
        .execute();
      await writeProducts(tx, fields.code, values.products);
      await recordAudit(tx, { actor: editor.actor, action: "promo-code.create", subject: `promo-code:${fields.code}`, after: values }, now);
      return { ok: true, value: (await getDeskPromo(tx, fields.code, now))!, changed: true };
    });
  } catch (error) {
    // Two new codes of one name at once: the second is told the name is taken.
    if (await db.selectFrom("promo_code").select("code").where("code", "=", fields.code).executeTakeFirst())
      return { ok: false, reason: "invalid", fields: { code: [CODE_TAKEN] } };
    throw error;
  }
}

/** Saves a code's terms over the version read; nothing changed writes nothing, a stale version writes nothing. */
export async function savePromo(db: Database, editor: Editor, code: string, change: PromoEdit, now: Date): Promise<SaveResult<DeskPromo>> {
  return db.transaction().execute(async (tx): Promise<SaveResult<DeskPromo>> => {
    const current = await getDeskPromo(tx, code, now);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== change.version) return { ok: false, reason: "stale", current };
    const next = auditedFields(change);
    if (!(await productsExist(tx, next.products))) return { ok: false, reason: "invalid", fields: { products: [UNKNOWN_PRODUCTS] } };
    const diff = changes(auditedOf(current), next);
    if (!diff) return { ok: true, value: current, changed: false };
    const updated = await tx
      .updateTable("promo_code")
      .set((eb) => ({ ...columns(next), version: eb("version", "+", 1), updated_at: now.toISOString(), updated_by_name: editor.name }))
      .where("code", "=", code)
      .where("version", "=", change.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getDeskPromo(tx, code, now))! };
    if (diff.after.products) await writeProducts(tx, code, next.products);
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "promo-code.save",
        subject: `promo-code:${code}`,
        before: { version: current.version, ...diff.before },
        after: { version: current.version + 1, ...diff.after },
      },
      now,
    );
    return { ok: true, value: (await getDeskPromo(tx, code, now))!, changed: true };
  });
}

/**
 * Disables a code (it works no more, whatever its dates; orders that used it keep their discount)
 * or enables it again. Doing what is already done writes nothing.
 */
export async function setPromoDisabled(
  db: Database,
  editor: Editor,
  code: string,
  disabled: boolean,
  now: Date,
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: "not-found" }> {
  return db.transaction().execute(async (tx) => {
    let query = tx.selectFrom("promo_code").select(["code", "disabled_at"]).where("code", "=", code);
    if (isPostgres(tx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return { ok: false as const, reason: "not-found" as const };
    if ((row.disabled_at !== null) === disabled) return { ok: true as const, changed: false };
    await tx
      .updateTable("promo_code")
      .set({ disabled_at: disabled ? now.toISOString() : null })
      .where("code", "=", code)
      .execute();
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: disabled ? "promo-code.disable" : "promo-code.enable",
        subject: `promo-code:${code}`,
        before: { disabledAt: row.disabled_at },
        after: { disabledAt: disabled ? now.toISOString() : null },
      },
      now,
    );
    return { ok: true as const, changed: true };
  });
}
