import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { ApiKey } from "~/server/desk/api-keys";
import { readerOverview, type ReaderOverview } from "~/server/desk/service";
import type { Database } from "~/server/db/connection";
import type { OrderListRow, DeskOrder, DeskOrderLine } from "~/server/store/fulfilment/desk-orders";
import { carrierName, trackingUrl } from "~/server/store/fulfilment/carriers";
import type { Shipment } from "~/server/store/fulfilment/shipments";
import type { Refund } from "~/server/store/refunds/refunds";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { apiError, apiJson } from "./handler.server";

// The Admin API's operations (ADR 088): what the desk's reader and order pages know, as JSON, and
// the keys that make a change sent twice one change.

export const operationsDb = (call: { request: Request; context: AppLoadContext }) => requestContext(call).db();

/** The reader page's overview, with the limits the page reads it with. */
export function overviewOf(db: Database, userId: string): Promise<ReaderOverview | undefined> {
  const c = config();
  return readerOverview(db, userId, { meterLimit: c.METER_REGISTERED_LIMIT, giftsPerMonth: c.GIFTS_PER_MONTH });
}

/** A reader as the API shows them: named fields only, so nothing the overview may grow reaches a tool unseen. */
export function readerJson(o: ReaderOverview) {
  const { account, signIn } = o;
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    displayName: account.displayName,
    status: account.status,
    createdAt: account.createdAt,
    emailVerifiedAt: account.emailVerifiedAt,
    lastVisitAt: account.lastVisitAt,
    staff: account.staff,
    signIn: signIn && {
      failures: signIn.failures,
      lockouts: signIn.lockouts,
      lockedUntil: signIn.lockedUntil,
      locked: signIn.locked,
      hardLocked: signIn.hardLocked,
    },
    subscriptions: o.subscriptions.map((s) => ({
      id: s.id,
      tier: s.tier,
      kind: s.kind,
      planName: s.planName,
      accountNumber: s.accountNumber,
      status: s.status,
      billingStatus: s.billingStatus,
      accessStart: s.accessStart,
      accessEnd: s.accessEnd,
      givesAccess: s.givesAccess,
      card: s.card && { brand: s.card.brand, last4: s.card.last4 },
    })),
    invoices: o.invoices.map((i) => ({
      id: i.id,
      number: i.number,
      kind: i.kind,
      totalCents: i.totalCents,
      createdAt: i.createdAt,
      receiptSentAt: i.receiptSentAt,
      card: i.card && { brand: i.card.brand, last4: i.card.last4 },
    })),
    orders: o.orders.map((order) => ({
      number: order.number,
      status: order.status,
      totalCents: order.totalCents,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      caseStudies: order.caseStudies.map((c) => ({
        position: c.position,
        title: c.title,
        expiresAt: c.expiresAt,
        extended: c.extended,
        expired: c.expired,
      })),
    })),
    printRecords: o.printRecords.map((p) => ({
      accountNumber: p.accountNumber,
      subscriptionCode: p.subscriptionCode,
      accessEnd: p.accessEnd,
      active: p.active,
      linked: p.linked,
    })),
    gifts: {
      left: o.gifts.left,
      list: o.gifts.list.map((g) => ({
        articleTitle: g.articleTitle,
        articleUrl: g.articleUrl,
        createdAt: g.createdAt,
        revoked: g.revoked,
      })),
    },
    meter: { period: o.meter.period, count: o.meter.count, limit: o.meter.limit },
    mail: o.mail.map((m) => ({ subject: m.subject, sentAt: m.sentAt })),
  };
}

export function orderSummaryJson(r: OrderListRow) {
  return {
    number: r.number,
    createdAt: r.createdAt,
    email: r.email,
    name: r.name,
    itemCount: r.itemCount,
    totalCents: r.totalCents,
    refundedCents: r.refundedCents,
    stage: r.stageCode,
    refundState: r.refundCode,
  };
}

export function shipmentJson(s: Shipment) {
  return {
    id: s.id,
    carrier: s.carrier,
    carrierName: carrierName(s.carrier),
    trackingNumber: s.trackingNumber,
    trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
    lines: s.positions,
    shippedAt: s.shippedAt,
    shippedBy: s.shippedBy,
    deliveredAt: s.deliveredAt,
    mailSentAt: s.mailSentAt,
  };
}

export function refundJson(r: Refund) {
  return {
    id: r.id,
    kind: r.kind,
    amountCents: r.amountCents,
    status: r.status,
    reason: r.reason,
    requestedBy: r.requestedBy,
    createdAt: r.createdAt,
    succeededAt: r.succeededAt,
    failure: r.failure,
    creditNote: r.creditNote,
    mailSentAt: r.mailSentAt,
    lines: r.lines.map((l) => ({ position: l.position, quantity: l.quantity })),
  };
}

const PREORDER_STATUS = { awaiting: "awaiting-date", declined: "charge-failed", released: "released" } as const;

/**
 * A pre-ordered line (ADR 092) as a tool sees it; null for any other line. The policy is the
 * line's own, not its format's: a line charged on its date holds its share (`charge_cents`).
 */
function preorderJson(l: DeskOrderLine, orderPaidAt: string | null) {
  if (!l.preorder || !l.available_date) return null;
  const onItsDate = l.charge_cents !== null;
  return {
    status: PREORDER_STATUS[l.preorder],
    availableDate: l.available_date,
    chargePolicy: onItsDate ? ("ship" as const) : ("payment" as const),
    chargeCents: l.charge_cents,
    chargedAt: onItsDate ? l.charged_at : orderPaidAt,
    chargeFailedAt: l.charge_failed_at,
    releasedAt: l.released_at,
  };
}

/** An order as the API shows it: never its access token, its keys or the provider's session. */
export function orderJson(d: DeskOrder) {
  const { order, row } = d;
  const address = order.address;
  return {
    number: order.number,
    status: order.status,
    stage: d.stage,
    refundState: d.refundState,
    kind: order.kind,
    email: order.email,
    readerId: order.userId,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    cancelledAt: order.cancelledAt,
    shippedAt: row.shipped_at,
    fulfilledAt: row.fulfilled_at,
    deliveredAt: row.delivered_at,
    provider: row.provider,
    promoCode: order.promoCode,
    shippingMethod: order.shippingMethod,
    address: address && {
      firstName: address.firstName,
      lastName: address.lastName,
      address1: address.address1,
      address2: address.address2,
      city: address.city,
      state: address.state,
      postalCode: address.postalCode,
      countryCode: address.countryCode,
    },
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    taxCents: order.taxCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    refundedCents: row.refunded_cents,
    lines: d.lines.map((l) => ({
      position: l.position,
      title: l.title,
      format: l.format,
      productType: l.product_type,
      kind: l.kind,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents,
      lineTotalCents: l.line_total_cents,
      ships: l.ships,
      fulfilledAt: l.fulfilled_at,
      refundedQuantity: l.refunded_quantity,
      refundable: l.refundable,
      dispatchable: l.dispatchable,
      preorder: preorderJson(l, order.paidAt),
    })),
    shipments: d.shipments.map(shipmentJson),
    refunds: d.refunds.map(refundJson),
  };
}

/**
 * A 409 `conflict` about an order: what the call asked for was done already (lines dispatched,
 * everything refunded). `current` is the order now, `by` and `at` who last dispatched or refunded it.
 */
export function orderConflict(d: DeskOrder, message: string, last: { by: string; at: string } | undefined): Response {
  return apiError(409, "conflict", message, { current: orderJson(d), by: last?.by ?? "someone else", at: last?.at ?? "" });
}

/** A 409 `wrong_state`: the order (or account) is not in a state the call applies to. */
export const wrongState = (message: string) => apiError(409, "wrong_state", message);

export const answerOrder = (d: DeskOrder, init?: { status?: number }) => apiJson(orderJson(d), init);

/**
 * The domain's idempotency key for a change a key asks for: from the caller's Idempotency-Key,
 * scoped to the API key, the operation and what it acts on (so one tool's key never replays
 * another's, nor a call on another order); without one, a key of its own, so every call counts.
 */
export function changeKey(key: ApiKey, operation: string, target: string, given: string | undefined): string {
  if (!given) return `api:${crypto.randomUUID()}`;
  const digest = crypto.createHash("sha256").update(`${key.id}\n${operation}\n${target}\n${given}`).digest("base64url");
  return `api:${digest}`;
}

/** A customer service action's key (REQUEST_KEY: 16 to 64 base64url characters), made the same way. */
export function serviceKey(key: ApiKey, operation: string, target: string, given: string | undefined): string {
  return changeKey(key, operation, target, given).slice("api:".length);
}
