import crypto from "node:crypto";
import type { Config } from "~/server/config";
import type { Database } from "~/server/db/connection";
import type { PaymentProvider } from "~/server/payments/provider";
import { readCart, type CartLine } from "./cart";
import { buildReview, readDraft, shipToColumns, type Review } from "./checkout";
import { storeMaintenance } from "./maintenance";
import { findOrder, toOrder, type Order } from "./order-records";
import { takePromoUse } from "./promo";

/** The key the review form carries (see issueIdempotencyKey). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{22,64}$/;

export const issueIdempotencyKey = () => crypto.randomBytes(18).toString("base64url");

function orderNumber(now: Date): string {
  const day = now.toISOString().slice(2, 10).replace(/-/g, "");
  const tail = Array.from(crypto.randomBytes(6), (b) => "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"[b % 34]).join("");
  return `MR-${day}-${tail}`;
}

export type SubmitOutcome =
  | { ok: true; created: boolean; order: Order }
  /** The cart already became this order, still awaiting payment (say, placed from another tab). */
  | { ok: false; problem: "already-ordered"; order: Order }
  /** bad-key: not a key the review form issues (an expired form); foreign-key: another shopper's order was placed with it. */
  | { ok: false; problem: "closed" | "bad-key" | "foreign-key" | "empty" | "incomplete" }
  /** Lines of items no longer sold (ADR 091): the shopper removes them first. */
  | { ok: false; problem: "retired"; titles: string[] }
  | { ok: false; problem: "promo"; message: string }
  | { ok: false; problem: "prices-changed"; review: Review };

export interface SubmitInput {
  cartId: string;
  userId: string | null;
  accountEmail: string | null;
  idempotencyKey: string;
  /** The total the shopper saw on the review page (cents). */
  shownTotalCents: number;
  /** The provider the order will be paid through: what it can do decides when pre-orders are charged (defersCharges). */
  provider?: Pick<PaymentProvider, "savedCardCharges">;
}

/**
 * Pre-orders of formats charged "when it ships" are left out of the checkout's amount and
 * charged on their dates only when the provider can charge the card the checkout saves, later
 * and without the buyer (ADR 092). Otherwise (no provider given) every pre-order is charged with the order.
 */
export const defersCharges = (provider: Pick<PaymentProvider, "savedCardCharges"> | undefined) => provider?.savedCardCharges !== undefined;

/** A cart line that, ordered through this provider, is charged on its availability date rather than with the order. */
export const chargedOnItsDate = (
  line: Pick<CartLine, "comingSoon" | "preorderCharge">,
  provider: Pick<PaymentProvider, "savedCardCharges"> | undefined,
) => defersCharges(provider) && line.comingSoon && line.preorderCharge === "ship";

/** Ends the order's transaction without keeping anything, with the answer to give. */
class Refused extends Error {
  constructor(readonly outcome: SubmitOutcome) {
    super("refused");
  }
}

/**
 * Places an order from the cart, once per idempotency key: a replay of the same submission
 * (double click, reload, a resent POST) finds the order the first one made, even when they
 * arrive at the same moment (the key is unique in the database). A cart becomes at most one
 * order awaiting payment: a submission from another review tab (another key) is answered
 * with that order. Prices (those in force at `now`), stock status (a coming-soon line is a pre-order) and the promo code are checked
 * again; a total different from the one shown is not charged. The promo code's use is taken in the
 * same transaction, within its limits (ADR 091).
 */
export async function submitOrder(
  db: Database,
  config: Pick<Config, "MAINTENANCE_MODE" | "STORE_MAINTENANCE_WINDOW" | "STORE_TIMEZONE">,
  input: SubmitInput,
  now = new Date(),
): Promise<SubmitOutcome> {
  if (storeMaintenance(config, now).closed) return { ok: false, problem: "closed" };
  if (!IDEMPOTENCY_KEY.test(input.idempotencyKey)) return { ok: false, problem: "bad-key" };
  const replay = await byKey(db, input);
  if (replay) return replay;
  try {
    return await db.transaction().execute((tx) => placeFromClaimedCart(tx, input, now));
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    // Another request with the same key got there first.
    const raced = await byKey(db, input);
    if (raced) return raced;
    throw error;
  }
}

/**
 * Inside one transaction: claims the cart (the update takes the cart row's write lock, so a
 * second submission for the same cart waits here until the first has committed, on SQLite and
 * PostgreSQL alike), then reads everything the order is made from after the claim.
 */
async function placeFromClaimedCart(tx: Database, input: SubmitInput, now: Date): Promise<SubmitOutcome> {
  const claimed = await tx.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", input.cartId).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ok: false, problem: "empty" };
  const open = await tx
    .selectFrom("store_order")
    .selectAll()
    .where("cart_id", "=", input.cartId)
    .where("status", "=", "pending_payment")
    .orderBy("created_at")
    .executeTakeFirst();
  if (open) {
    const order = await toOrder(tx, open);
    return open.idempotency_key === input.idempotencyKey
      ? { ok: true, created: false, order }
      : { ok: false, problem: "already-ordered", order };
  }

  const cart = await readCart(tx, input.cartId, now);
  const outcome = await buildReview(
    tx,
    { cart, draft: await readDraft(tx, input.cartId), userId: input.userId, accountEmail: input.accountEmail },
    now,
  );
  if (!outcome.ok) return outcome;
  const { review } = outcome;
  const retired = cart.lines.filter((l) => l.retired);
  if (retired.length > 0) return { ok: false, problem: "retired", titles: retired.map((l) => l.title) };
  if (review.promo && review.promo.status !== "valid") return { ok: false, problem: "promo", message: review.promo.message };
  if (review.totals.totalCents !== input.shownTotalCents) return { ok: false, problem: "prices-changed", review };

  const { totals } = review;
  const chargeLater = (l: CartLine) => (chargedOnItsDate(l, input.provider) ? preorderShare(l.lineTotalCents, totals) : null);
  const deferredCents = cart.lines.reduce((sum, l) => sum + (chargeLater(l) ?? 0), 0);
  const id = `ord_${crypto.randomBytes(16).toString("base64url")}`;
  await tx
    .insertInto("store_order")
    .values({
      id,
      number: orderNumber(now),
      user_id: input.userId,
      email: review.email,
      idempotency_key: input.idempotencyKey,
      access_token: crypto.randomBytes(24).toString("base64url"),
      kind: "purchase",
      status: "pending_payment",
      ...shipToColumns(review.address),
      shipping_method: review.method?.id ?? null,
      promo_code: review.promo?.status === "valid" ? review.promo.promo.code : null,
      subtotal_cents: review.totals.subtotalCents,
      discount_cents: review.totals.discountCents,
      tax_cents: review.totals.taxCents,
      shipping_cents: review.totals.shippingCents,
      total_cents: review.totals.totalCents,
      provider: null,
      provider_session_id: null,
      provider_checkout_url: null,
      cart_id: input.cartId,
      created_at: now.toISOString(),
      paid_at: null,
      cancelled_at: null,
      confirmation_sent_at: null,
      deferred_cents: deferredCents,
    })
    .execute();
  await tx
    .insertInto("store_order_line")
    .values(
      cart.lines.map((l, position) => ({
        order_id: id,
        position,
        product_id: l.productId,
        availability_id: l.availabilityId,
        title: l.title,
        product_type: l.productType,
        format: l.format,
        code: l.code,
        line_type: l.lineType,
        kind: l.kind,
        quantity: l.quantity,
        unit_price_cents: l.unitPriceCents,
        line_total_cents: l.lineTotalCents,
        available_date: l.comingSoon ? l.availableDate : null,
        charge_cents: chargeLater(l),
      })),
    )
    .execute();
  if (review.promo?.status === "valid") {
    const taken = await takePromoUse(tx, review.promo.promo.code, { orderId: id, userId: input.userId, email: review.email }, now);
    if (!taken.ok) throw new Refused({ ok: false, problem: "promo", message: taken.message });
  }
  return { ok: true, created: true, order: (await findOrder(tx, id))! };
}

/**
 * What a pre-order charged on its date takes: its share of what the order's goods cost, its price
 * less its share of the discount plus its share of the tax, as a refund of it gives back (ADR 086).
 */
function preorderShare(lineTotalCents: number, totals: Review["totals"]): number {
  if (totals.subtotalCents <= 0) return 0;
  return Math.round((lineTotalCents * (totals.totalCents - totals.shippingCents)) / totals.subtotalCents);
}

/** The order an earlier submission with this key made, if it was this shopper's. */
async function byKey(db: Database, input: SubmitInput): Promise<SubmitOutcome | undefined> {
  const row = await db.selectFrom("store_order").selectAll().where("idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
  if (!row) return undefined;
  const mine = input.userId ? row.user_id === input.userId : row.user_id === null && row.cart_id === input.cartId;
  if (!mine) return { ok: false, problem: "foreign-key" };
  return { ok: true, created: false, order: await toOrder(db, row) };
}
