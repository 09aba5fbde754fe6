import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import { productPath } from "~/shared/urls";
import { fulfilAtPayment } from "./fulfilment/shipments";

export type VoucherState =
  | { status: "unknown" | "used"; code: string }
  | { status: "available"; code: string; availabilityId: number; title: string; format: string; url: string };

export const normalizeVoucherCode = (code: string) => code.trim().toUpperCase().slice(0, 40);

export async function voucherState(db: Database, rawCode: string): Promise<VoucherState> {
  const code = normalizeVoucherCode(rawCode);
  const row = code
    ? await db
        .selectFrom("voucher as v")
        .innerJoin("product_availability as a", "a.id", "v.availability_id")
        .innerJoin("product as p", "p.id", "a.product_id")
        .select(["v.code", "v.redeemed_at", "a.id as availability_id", "a.format", "p.title", "p.slug"])
        .where("v.code", "=", code)
        .executeTakeFirst()
    : undefined;
  if (!row) return { status: "unknown", code };
  if (row.redeemed_at) return { status: "used", code };
  return {
    status: "available",
    code,
    availabilityId: row.availability_id,
    title: row.title,
    format: row.format,
    url: productPath({ slug: row.slug, availabilityId: row.availability_id }),
  };
}

export type RedeemOutcome = { ok: true; orderId: string } | { ok: false; problem: "unknown" | "used" };

/**
 * Redeems a voucher for a reader: an order of kind "voucher" for its product at no charge,
 * paid at once, no provider. A voucher works once; two redemptions at the same moment get one
 * order between them.
 */
export async function redeemVoucher(
  db: Database,
  rawCode: string,
  user: { id: string; email: string },
  now = new Date(),
): Promise<RedeemOutcome> {
  const state = await voucherState(db, rawCode);
  if (state.status !== "available") return { ok: false, problem: state.status };
  const orderId = `ord_${crypto.randomBytes(16).toString("base64url")}`;
  return db.transaction().execute(async (tx): Promise<RedeemOutcome> => {
    const taken = await tx
      .updateTable("voucher")
      .set({ redeemed_by: user.id, redeemed_at: now.toISOString(), order_id: orderId })
      .where("code", "=", state.code)
      .where("redeemed_at", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return { ok: false, problem: "used" };
    const item = await tx
      .selectFrom("product_availability as a")
      .innerJoin("product as p", "p.id", "a.product_id")
      .select(["a.id", "a.product_id", "a.format", "a.code", "a.line_type", "a.status", "a.available_date", "p.title", "p.product_type"])
      .where("a.id", "=", state.availabilityId)
      .executeTakeFirstOrThrow();
    await tx
      .insertInto("store_order")
      // A voucher order has no address, shipping, promo or payment: those columns stay null.
      .values({
        id: orderId,
        number: `MR-${now.toISOString().slice(2, 10).replace(/-/g, "")}-V${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
        user_id: user.id,
        email: user.email,
        idempotency_key: `voucher:${state.code}`,
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
    await fulfilAtPayment(tx, orderId, now);
    return { ok: true, orderId };
  });
}
