import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { addressLines } from "~/shared/address";
import { downloadsForOrder } from "~/server/store/downloads";
import { cancelOrder, startOrderPayment, type CancelOutcome } from "~/server/store/order-payment";
import type { Database } from "~/server/db/connection";
import { orderForViewer, type Order } from "~/server/store/order-records";
import { canPayAgain, startPreorderPayment } from "~/server/store/preorder-payment";
import { findShippingMethod } from "~/shared/shipping";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "~/app/components/store/checkout.css";
import { OrderDownloads } from "~/app/components/store/OrderDownloads";
import { OrderLines, OrderTotals } from "~/app/components/store/OrderLines";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formatPublished } from "~/app/lib/content/format";
import { paymentReturnPath, settleOnReturn, settlePreorderOnReturn } from "~/app/lib/store/orders.server";
import { confirmOrder, mailPreorderNotices, payments } from "~/app/lib/store/payments.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { log } from "~/server/log";
import { requestContext } from "~/app/lib/context/request-context.server";
import { carrierName, trackingUrl } from "~/server/store/fulfilment/carriers";
import { orderStage, REFUND_LABELS, refundState, STAGE_LABELS } from "~/server/store/fulfilment/lifecycle";
import { shipmentsOf } from "~/server/store/fulfilment/shipments";

const STATUS_LABEL: Record<Order["status"], string> = { paid: "Purchased", cancelled: "Cancelled", pending_payment: "Awaiting payment" };

/**
 * An order's confirmation and receipt, for its signed-in buyer or whoever holds the order's
 * key (a guest's link); anyone else gets the same 404 as for an order that does not exist.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const key = url.searchParams.get("key");
  const user = await requestContext({ request, context }).user();
  const viewer = { userId: user?.id ?? null, key };
  const database = await db();
  let order = await orderForViewer(database, params.id ?? "", viewer);
  if (!order) throw new Response("No such order", { status: 404 });
  if (order.status !== "cancelled") {
    await settleOnReturn(order);
    // Back from paying for a declined pre-order (the provider adds its session's id).
    const sessionId = url.searchParams.get("session_id");
    if (sessionId && order.status === "paid") await settlePreorderOnReturn(order, sessionId);
    order = (await orderForViewer(database, order.id, viewer))!;
  }
  const method = order.address && order.shippingMethod ? findShippingMethod(order.address.countryCode, order.shippingMethod) : undefined;
  const keyQuery = key && !user ? `key=${encodeURIComponent(key)}&` : "";
  const here = `/order/${order.id}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
  const progress = await database
    .selectFrom("store_order")
    .select(["status", "fulfilled_at", "delivered_at", "refunded_cents", "total_cents"])
    .where("id", "=", order.id)
    .executeTakeFirstOrThrow();
  const shipments = await shipmentsOf(database, order.id);
  return {
    progress:
      order.status === "pending_payment"
        ? null
        : [order.status === "paid" ? STAGE_LABELS[orderStage(progress)] : null, REFUND_LABELS[refundState(progress)]]
            .filter(Boolean)
            .join(", ") || null,
    refunded: progress.refunded_cents > 0,
    shipments: shipments.map((s) => ({
      id: s.id,
      carrier: carrierName(s.carrier),
      trackingNumber: s.trackingNumber,
      trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
      shipped: formatPublished(s.shippedAt),
      delivered: s.deliveredAt ? formatPublished(s.deliveredAt) : null,
      items: order.lines.filter((l) => s.positions.includes(l.position)).map((l) => `${l.quantity} × ${l.title} (${l.format})`),
    })),
    number: order.number,
    date: formatPublished(order.createdAt),
    status: order.status,
    statusLabel: STATUS_LABEL[order.status],
    voucher: order.kind === "voucher",
    email: order.email,
    address: order.address ? addressLines(order.address) : null,
    method: method ? `${method.name} (${method.delivery})` : null,
    promoCode: order.promoCode,
    lines: order.lines.map((l) => ({
      title: l.title,
      format: l.format,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      lineTotalCents: l.lineTotalCents,
      availableDate: l.availableDate,
      ...(canPayAgain(order, l)
        ? {
            problem: "Your card was declined for this pre-order, and nothing was charged for it.",
            payAgain: { action: here, position: l.position },
          }
        : {}),
    })),
    totals: {
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      taxCents: order.taxCents,
      shippingCents: order.shippingCents,
      totalCents: order.totalCents,
    },
    downloads: await downloadsForOrder(database, order.id, new Date(), user ? undefined : (key ?? undefined)),
    printPath: `/order/${order.id}?${keyQuery}printMe=1`,
    checkoutUrl: order.checkoutUrl,
    cancelPath: here,
    registrationPath:
      !order.userId && !user && order.status === "paid"
        ? `/registration-complete?order=${order.id}&key=${encodeURIComponent(order.accessToken)}`
        : null,
  };
}

/**
 * The buyer cancels an order still awaiting payment (intent=cancel), then sees it again (303).
 * A replay lands on the cancelled order; a paid order answers 409. An order whose payment page
 * was never recorded (the server stopped as it was being opened) is paid through intent=pay,
 * which opens it (or finds it again at the provider) and sends the buyer there. A pre-order
 * whose card was declined on its date is paid through intent=pay-preorder with its position.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const key = new URL(request.url).searchParams.get("key");
  const user = await requestContext({ request, context }).user();
  const database = await db();
  const order = await orderForViewer(database, params.id ?? "", { userId: user?.id ?? null, key });
  if (!order) throw new Response("No such order", { status: 404 });
  const intent = form.get("intent");
  if (intent === "pay") return payForOrder(database, order, key);
  if (intent === "pay-preorder") return payForPreorder(database, order, form.get("position"), key);
  if (intent !== "cancel") throw new Response("Unknown request", { status: 400 });
  let outcome: CancelOutcome;
  try {
    outcome = await cancelOrder(database, await payments(), order.id);
  } catch (error) {
    // The provider could not be reached to close the payment page: nothing has changed.
    log.error(`cancelling order ${order.id} failed`, { error });
    return data({ message: "The order could not be cancelled just now. Please try again in a few minutes." }, { status: 503 });
  }
  if (outcome === "paid") {
    // Paid after all (perhaps just now, in the provider's page): the buyer gets the confirmation.
    await confirmOrder(order.id);
    return data(
      { message: "This order has been paid, so it can no longer be cancelled here. Please contact customer service." },
      { status: 409 },
    );
  }
  return redirect(`/order/${order.id}${key ? `?key=${encodeURIComponent(key)}` : ""}`, 303);
}

async function payForOrder(database: Database, order: Order, key: string | null) {
  const here = `/order/${order.id}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
  if (order.status !== "pending_payment") return redirect(here, 303);
  try {
    const siteUrl = config().siteUrl;
    const url = await startOrderPayment(database, await payments(), order, {
      successUrl: `${siteUrl}${paymentReturnPath(order)}`,
      cancelUrl: `${siteUrl}${here}`,
    });
    return redirect(url, 303);
  } catch (error) {
    log.error(`order ${order.id}: payment could not start`, { error });
    return data({ message: "The payment page could not be opened just now. Please try again in a few minutes." }, { status: 503 });
  }
}

/** Opens the provider's checkout for a declined pre-order's charge; back on the order's page when there is nothing to pay. */
async function payForPreorder(database: Database, order: Order, position: FormDataEntryValue | null, key: string | null) {
  const here = `/order/${order.id}${key ? `?key=${encodeURIComponent(key)}` : ""}`;
  if (typeof position !== "string" || !/^\d{1,6}$/.test(position)) throw new Response("No such pre-order in this order", { status: 400 });
  try {
    const siteUrl = config().siteUrl;
    const started = await startPreorderPayment(database, await payments(), order, Number(position), {
      successUrl: `${siteUrl}${here}`,
      cancelUrl: `${siteUrl}${here}`,
    });
    if (started.kind === "checkout") return redirect(started.url, 303);
    if (started.kind === "paid") await mailPreorderNotices();
    return redirect(here, 303);
  } catch (error) {
    log.error(`order ${order.id}: the payment of pre-order ${position} could not start`, { error });
    return data({ message: "The payment page could not be opened just now. Please try again in a few minutes." }, { status: 503 });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => [
  ...seo({
    title: page ? `Order ${page.number}` : "Order",
    description: "Your order confirmation and receipt.",
    path: "/order",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function OrderPage() {
  const page = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <article className={css.receipt} aria-labelledby="order-title">
      <h1 id="order-title">Order {page.number}</h1>
      {page.status === "paid" ? (
        <p role="status" className={css.good}>
          Thank you for your order. {page.voucher ? "Your voucher has been redeemed." : `A confirmation has been sent to ${page.email}.`}
        </p>
      ) : page.status === "pending_payment" ? (
        <p role="status">
          We are waiting for the payment provider to confirm your payment. This page shows the order as soon as it is paid.
        </p>
      ) : page.status === "cancelled" ? (
        <p role="status">
          {page.refunded
            ? "This order has been cancelled, and what you paid has been refunded."
            : "This order has been cancelled. Nothing was charged."}
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className={css.bad}>
          {refused.message}
        </p>
      ) : null}
      <dl className={css.totals}>
        <dt>Order number</dt>
        <dd>{page.number}</dd>
        <dt>Date</dt>
        <dd>{page.date}</dd>
        <dt>Status</dt>
        <dd>{page.statusLabel}</dd>
        {page.progress ? (
          <>
            <dt>Progress</dt>
            <dd>{page.progress}</dd>
          </>
        ) : null}
      </dl>

      {page.shipments.length > 0 ? (
        <section aria-labelledby="shipments-title">
          <h2 id="shipments-title">Shipments</h2>
          <ul>
            {page.shipments.map((s) => (
              <li key={s.id}>
                {s.items.join(", ")}: dispatched {s.shipped} with {s.carrier}, tracking number{" "}
                {s.trackingUrl ? <a href={s.trackingUrl}>{s.trackingNumber}</a> : s.trackingNumber}
                {s.delivered ? `; delivered ${s.delivered}` : null}.
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="lines-title">
        <h2 id="lines-title">Items</h2>
        <OrderLines lines={page.lines} caption="Items in this order" />
        <OrderTotals totals={page.totals} promoCode={page.promoCode} shipping={page.method !== null} />
      </section>

      {page.address ? (
        <section aria-labelledby="address-title">
          <h2 id="address-title">{page.method ? "Shipping address" : "Billing address"}</h2>
          <address className={css.address}>
            {page.address.map((line) => (
              <span key={line}>
                {line}
                <br />
              </span>
            ))}
          </address>
          {page.method ? <p>Shipping method: {page.method}</p> : null}
        </section>
      ) : null}

      <OrderDownloads downloads={page.downloads} />

      <div className={css.noPrint}>
        {page.checkoutUrl ? (
          <p>
            <a className={primaryButton} href={page.checkoutUrl}>
              Pay for this order
            </a>
          </p>
        ) : page.status === "pending_payment" ? (
          <Form method="post" action={page.cancelPath}>
            <p>
              <button type="submit" name="intent" value="pay" className={primaryButton}>
                Pay for this order
              </button>
            </p>
          </Form>
        ) : null}
        {page.status === "pending_payment" ? (
          <Form method="post" action={page.cancelPath}>
            <p>
              Changed your mind? You can cancel this order while it is awaiting payment, or{" "}
              <Link to="/review-order">go back to your order review</Link>.
            </p>
            <button type="submit" name="intent" value="cancel" className={primaryButton}>
              Cancel this order
            </button>
          </Form>
        ) : null}
        {page.registrationPath ? (
          <p>
            <Link to={page.registrationPath}>Create an account</Link> to keep this order with your purchase history.
          </p>
        ) : null}
        <p>
          <a href={page.printPath}>Print this receipt</a> · <Link to="/store">Continue shopping</Link>
        </p>
      </div>
    </article>
  );
}
