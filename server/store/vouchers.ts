import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { productPath } from "~/shared/urls";
import { fulfilAtPayment } from "./fulfilment/shipments";

/** Why a voucher cannot be redeemed (ADR 091): each has its own message for the reader. */
export type VoucherRefusal = "unknown" | "used" | "disabled" | "ended" | "used-by-reader" | "retired";

export type VoucherState =
  | { status: VoucherRefusal; code: string }
  | { status: "available"; code: string; availabilityId: number; title: string; format: string; url: string };

export const normalizeVoucherCode = (code: string) => code.trim().toUpperCase().slice(0, 40);

export const VOUCHER_MESSAGES: Record<VoucherRefusal, (code: string) => string> = {
  unknown: (code) => `We don't recognise the voucher code ${code}. Please check it and try again.`,
  used: (code) => `The voucher ${code} has already been redeemed.`,
  disabled: (code) => `The voucher ${code} is no longer available.`,
  ended: (code) => `The voucher ${code} has expired.`,
  "used-by-reader": (code) => `You have already redeemed the voucher ${code}.`,
  retired: (code) => `The item the voucher ${code} was for is no longer available.`,
};

interface VoucherRow {
  code: string;
  availability_id: number;
  max_uses: number;
  max_uses_per_reader: number | null;
  starts_at: string | null;
  ends_at: string | null;
  disabled_at: string | null;
}

/** The uses of a voucher still standing (not given back): in all, or of one reader. */
async function standingUses(db: Database, code: string, userId?: string): Promise<number> {
  let query = db
    .selectFrom("voucher_use")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("code", "=", code)
    .where("released_at", "is", null);
  if (userId) query = query.where("user_id", "=", userId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Whether the voucher can be redeemed at `now` (by `userId`, when known), or why not. */
async function refusal(db: Database, row: VoucherRow, status: string, now: Date, userId?: string): Promise<VoucherRefusal | null> {
  const at = now.toISOString();
  if (row.starts_at !== null && row.starts_at > at) return "unknown";
  if (row.disabled_at !== null) return "disabled";
  if (row.ends_at !== null && row.ends_at < at) return "ended";
  if (status === "R") return "retired";
  if ((await standingUses(db, row.code)) >= row.max_uses) return "used";
  if (userId && row.max_uses_per_reader !== null && (await standingUses(db, row.code, userId)) >= row.max_uses_per_reader)
    return "used-by-reader";
  return null;
}

function voucherQuery(db: Database, code: string) {
  return db
    .selectFrom("voucher as v")
    .innerJoin("product_availability as a", "a.id", "v.availability_id")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select([
      "v.code",
      "v.availability_id",
      "v.max_uses",
      "v.max_uses_per_reader",
      "v.starts_at",
      "v.ends_at",
      "v.disabled_at",
      "a.status",
      "a.format",
      "p.title",
      "p.slug",
    ])
    .where("v.code", "=", code);
}

/** What a voucher code gives, or why it cannot be redeemed now (by this reader, when given). */
export async function voucherState(db: Database, rawCode: string, now = new Date(), userId?: string): Promise<VoucherState> {
  const code = normalizeVoucherCode(rawCode);
  const row = code ? await voucherQuery(db, code).executeTakeFirst() : undefined;
  if (!row) return { status: "unknown", code };
  const refused = await refusal(db, row, row.status, now, userId);
  if (refused) return { status: refused, code };
  return {
    status: "available",
    code,
    availabilityId: row.availability_id,
    title: row.title,
    format: row.format,
    url: productPath({ slug: row.slug, availabilityId: row.availability_id }),
  };
}

export type RedeemOutcome = { ok: true; orderId: string } | { ok: false; problem: VoucherRefusal };

/**
 * Redeems a voucher for a reader: an order of kind "voucher" for its product at no charge, paid at
 * once, no provider. The voucher's row is written first, so its lock is held while its uses are
 * counted: a voucher with one use left, redeemed twice at the same moment, gives one order between
 * them; its limits per reader, dates and being disabled are checked under the same lock.
 */
export async function redeemVoucher(
  db: Database,
  rawCode: string,
  user: { id: string; email: string },
  now = new Date(),
): Promise<RedeemOutcome> {
  const state = await voucherState(db, rawCode, now, user.id);
  if (state.status !== "available") return { ok: false, problem: state.status };
  const orderId = `ord_${crypto.randomBytes(16).toString("base64url")}`;
  return db.transaction().execute(async (tx): Promise<RedeemOutcome> => {
    const locked = await tx
      .updateTable("voucher")
      // Writes nothing new: the update is for the row's lock.
      .set({ disabled_at: sql`disabled_at` })
      .where("code", "=", state.code)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) !== 1) return { ok: false, problem: "unknown" };
    const row = await voucherQuery(tx, state.code).executeTakeFirstOrThrow();
    const refused = await refusal(tx, row, row.status, now, user.id);
    if (refused) return { ok: false, problem: refused };
    const item = await tx
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.id", "a.product_id", "a.format", "a.code", "a.line_type", "a.status", "a.available_date", "p.title", "p.product_type"])
      .where("a.id", "=", row.availability_id)
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("store_order")
      // A voucher order has no address, shipping, promo or payment: those columns stay null.
      .values({
        id: orderId,
        number: `MR-${now.toISOString().slice(2, 10).replace(/-/g, "")}-V${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
        user_id: user.id,
        email: user.email,
        idempotency_key: `voucher:${state.code}:${orderId}`,
        access_token: crypto.randomBytes(24).toString("base64url"),
        kind: "voucher",
        status: "paid",
        subtotal_cents: 0,
        discount_cents: 0,
        tax_cents: 0,
        shipping_cents: 0,
        total_cents: 0,
        created_at: now.toISOString(),
        paid_at: now.toISOString(),
      })
      .execute();
    await tx
      .insertInto("store_order_line")
      .values({
        order_id: orderId,
        position: 0,
        product_id: item.product_id,
        availability_id: item.id,
        title: item.title,
        product_type: item.product_type,
        format: item.format,
        code: item.code,
        line_type: item.line_type,
        kind: "item",
        quantity: 1,
        unit_price_cents: 0,
        line_total_cents: 0,
        available_date: item.status === "F" ? item.available_date : null,
      })
      .execute();
    await tx
      .insertInto("voucher_use")
      .values({
        order_id: orderId,
        code: state.code,
        user_id: user.id,
        email: user.email.trim().toLowerCase(),
        used_at: now.toISOString(),
        released_at: null,
      })
      .execute();
    await fulfilAtPayment(tx, orderId, now);
    return { ok: true, orderId };
  });
}
