import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { CartLineKind, OrderStatus, RefundStatus } from "~/server/db/schema";
import { SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { markOrderPaid } from "~/server/store/order-payment";

/** A shipping address the checkout accepts, as its form fields. */
export const SHIPPING_ADDRESS = {
  firstName: "Ada",
  lastName: "Byron",
  address1: "12 Harbour Road",
  address2: "",
  city: "Albany",
  state: "NY",
  postalCode: "12207",
  countryCode: "US",
};

export interface LineSpec {
  availabilityId: number;
  kind?: CartLineKind;
  quantity?: number;
  /** Overrides the catalogue's date, e.g. for a coming-soon line. */
  availableDate?: string | null;
}

let sequence = 0;

/**
 * Writes an order straight into store_order / store_order_line, the way the checkout leaves
 * one (the checkout routes are another branch's): ids "ord_" + 22 base64url characters, lines
 * copied from the catalogue with their prices.
 */
export async function insertOrder(
  db: Database,
  input: { userId: string | null; email: string; status: OrderStatus; createdAt: string; paidAt?: string | null; lines: LineSpec[] },
): Promise<{ id: string; number: string; accessToken: string }> {
  const id = `ord_${crypto.randomBytes(16).toString("base64url")}`;
  const accessToken = crypto.randomBytes(24).toString("base64url");
  sequence += 1;
  const number = `MR${String(process.pid).slice(-4)}${String(sequence).padStart(5, "0")}${crypto.randomBytes(2).toString("hex").toUpperCase()}`;
  const rows = await Promise.all(
    input.lines.map(async (spec, i) => {
      const a = await db
        .selectFrom("product_availability as a")
        .innerJoin("product as p", "p.id", "a.product_id")
        .select([
          "a.id",
          "a.product_id",
          "a.format",
          "a.code",
          "a.line_type",
          "a.list_price_cents",
          "a.available_date",
          "p.title",
          "p.product_type",
        ])
        .where("a.id", "=", spec.availabilityId)
        .executeTakeFirstOrThrow();
      const kind = spec.kind ?? "item";
      const quantity = spec.quantity ?? 1;
      const unit = kind === "perm" ? 150 : a.list_price_cents;
      return {
        order_id: id,
        position: i + 1,
        product_id: a.product_id,
        availability_id: a.id,
        title: a.title,
        product_type: a.product_type,
        format: a.format,
        code: a.code,
        line_type: a.line_type,
        kind,
        quantity,
        unit_price_cents: unit,
        line_total_cents: unit * quantity,
        available_date: spec.availableDate === undefined ? a.available_date : spec.availableDate,
      };
    }),
  );
  const subtotal = rows.reduce((sum, r) => sum + r.line_total_cents, 0);
  await db
    .insertInto("store_order")
    .values({
      id,
      number,
      user_id: input.userId,
      email: input.email,
      idempotency_key: crypto.randomUUID(),
      access_token: accessToken,
      kind: "purchase",
      status: input.status,
      subtotal_cents: subtotal,
      discount_cents: 0,
      tax_cents: 0,
      shipping_cents: 0,
      total_cents: subtotal,
      provider: "sandbox",
      created_at: input.createdAt,
      paid_at: input.status === "pending_payment" ? null : (input.paidAt ?? input.createdAt),
      cancelled_at: input.status === "cancelled" ? input.createdAt : null,
    })
    .execute();
  if (rows.length) await db.insertInto("store_order_line").values(rows).execute();
  return { id, number, accessToken };
}

/** Seed availabilities by what a test needs of them. */
export async function availabilities(db: Database) {
  const rows = await db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select([
      "a.id",
      "a.product_id as productId",
      "a.code",
      "a.line_type",
      "a.status",
      "a.permissions_available",
      "p.product_type",
      "p.title",
      "p.authors",
    ])
    .orderBy("a.id")
    .execute();
  const first = (test: (r: (typeof rows)[number]) => boolean) => {
    const r = rows.find(test);
    if (!r) throw new Error("seed catalogue lacks a needed availability");
    return r;
  };
  return {
    all: rows,
    hardcover: first((r) => r.code === "HBK" && r.status === "A"),
    kindle: first((r) => r.code === "KND" && r.status === "A"),
    epub: first((r) => r.code === "EPB" && r.status === "A"),
    pdfBook: first((r) => r.code === "PDF" && r.product_type !== "Case Study"),
    html: first((r) => r.code === "HTM"),
    spreadsheet: first((r) => r.code === "XLS"),
    bundle: first((r) => r.code === "BUN" && r.status === "A"),
    caseStudy: first((r) => r.product_type === "Case Study" && r.code === "PDF"),
    comingSoon: first((r) => r.status === "F"),
    withPermissions: first((r) => r.permissions_available === 1 && r.status === "A"),
  };
}

/**
 * Sets an order's money around its lines (their totals as they stand): the subtotal, and the
 * discount, tax and shipping given, with the total they make. Answers that total.
 */
export async function priceOrder(db: Database, orderId: string, money: { discount?: number; tax?: number; shipping?: number }) {
  const lines = await db.selectFrom("store_order_line").select("line_total_cents").where("order_id", "=", orderId).execute();
  const subtotal = lines.reduce((sum, l) => sum + l.line_total_cents, 0);
  const { discount = 0, tax = 0, shipping = 0 } = money;
  const total = subtotal - discount + tax + shipping;
  await db
    .updateTable("store_order")
    .set({ subtotal_cents: subtotal, discount_cents: discount, tax_cents: tax, shipping_cents: shipping, total_cents: total })
    .where("id", "=", orderId)
    .execute();
  return total;
}

/** A refund of some of an order's lines (positions and quantities) through the sandbox, as ADR 086's refunds leave it. */
export async function insertRefund(
  db: Database,
  refund: { orderId: string; status: RefundStatus; at: string; amountCents: number; lines: [position: number, quantity: number][] },
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("store_refund")
    .values({
      id,
      order_id: refund.orderId,
      idempotency_key: id,
      kind: "lines",
      amount_cents: refund.amountCents,
      reason: "Made by a test",
      status: refund.status,
      requested_by: "store@reports.example",
      created_at: refund.at,
      provider: "sandbox",
      provider_refund_id: null,
      succeeded_at: refund.status === "succeeded" ? refund.at : null,
      failure: refund.status === "failed" ? "declined" : null,
      credit_note_number: null,
      mail_sent_at: null,
      mail_claimed_until: null,
    })
    .execute();
  await db
    .insertInto("store_refund_line")
    .values(refund.lines.map(([position, quantity]) => ({ refund_id: id, position, quantity })))
    .execute();
  return id;
}

/**
 * Pays an order at the sandbox provider with a card that succeeds, as its buyer would, and
 * settles it as the return from checkout does: the order the desk and the buyer then see as paid.
 */
export async function payAtSandbox(
  db: Database,
  sandbox: SandboxProvider,
  order: { id: string; number: string },
  customerEmail: string,
  at: Date,
): Promise<{ sessionId: string; totalCents: number }> {
  const { total_cents } = await db.selectFrom("store_order").select("total_cents").where("id", "=", order.id).executeTakeFirstOrThrow();
  const session = await sandbox.createCheckout({
    reference: order.id,
    description: `Order ${order.number}`,
    amountCents: total_cents,
    currency: "usd",
    customerEmail,
    successUrl: "https://meridian.test/ok",
    cancelUrl: "https://meridian.test/no",
  });
  await db.updateTable("store_order").set({ provider: "sandbox", provider_session_id: session.id }).where("id", "=", order.id).execute();
  if (!(await sandbox.pay(session.id, SANDBOX_CARDS.succeeds, at)).ok) throw new Error(`the sandbox refused to pay ${order.number}`);
  if (!(await markOrderPaid(db, order.id, at))) throw new Error(`${order.number} was not settled as paid`);
  return { sessionId: session.id, totalCents: total_cents };
}
