import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { addressLines } from "~/shared/address";
import { readCart } from "~/server/store/cart";
import { buildReview, readDraft } from "~/server/store/checkout";
import { chargedOnItsDate, issueIdempotencyKey } from "~/server/store/order-submit";
import { storeMaintenance } from "~/server/store/maintenance";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "~/app/components/store/checkout.css";
import { OrderLines, OrderTotals } from "~/app/components/store/OrderLines";
import { StoreMaintenanceNotice } from "~/app/components/store/StoreMaintenanceNotice";
import { checkoutLine, placeOrder } from "~/app/lib/store/checkout.server";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { placeOrderSchema } from "~/app/lib/store/checkout-forms";
import { formatUsd } from "~/app/lib/content/format";
import { requestContext } from "~/app/lib/context/request-context.server";
import { payments } from "~/app/lib/store/payments.server";
import { CheckoutHeading } from "~/app/components/steps/StepHeading";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const maintenance = storeMaintenance(config());
  if (maintenance.closed) return { maintenance, review: null, idempotencyKey: null };
  const user = await requestContext({ request, context }).user();
  const cartId = await requestContext({ request, context }).cartId();
  const database = await db();
  const cart = await readCart(database, cartId);
  if (!cartId || cart.lines.length === 0) return { maintenance, review: null, idempotencyKey: null };
  const outcome = await buildReview(database, {
    cart,
    draft: await readDraft(database, cartId),
    userId: user?.id ?? null,
    accountEmail: user?.email ?? null,
  });
  if (!outcome.ok) throw redirect("/shipping-payment");
  const { review } = outcome;
  const provider = await payments();
  return {
    maintenance,
    // A fresh key for every showing of the form: a replay of one submission carries the same key.
    idempotencyKey: issueIdempotencyKey(),
    review: {
      email: review.email,
      address: addressLines(review.address),
      method: review.method && { name: review.method.name, delivery: review.method.delivery },
      promo: review.promo && {
        ok: review.promo.status === "valid",
        message: review.promo.message,
        code: review.promo.status === "valid" ? review.promo.promo.code : null,
      },
      lines: review.cart.lines.map(checkoutLine),
      comingSoon: review.cart.lines.some((l) => l.comingSoon),
      // Pre-orders charged on their date (ADR 092): left out of what the checkout takes now.
      chargedLater: review.cart.lines.filter((l) => chargedOnItsDate(l, provider)).map((l) => l.title),
      totals: review.totals,
    },
  };
}

type Refusal = { message: string };
const refuse = (message: string, status: number) => data<Refusal>({ message }, { status });

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: placeOrderSchema });
  if (submission.status !== "success") return refuse("This order form could not be read. Please review your order and try again.", 400);
  const outcome = await placeOrder(
    { request, context },
    {
      idempotencyKey: submission.value.idempotencyKey,
      shownTotalCents: submission.value.shownTotal,
    },
  );
  switch (outcome.kind) {
    case "refused":
      return refuse(outcome.message, outcome.status);
    case "elsewhere":
      return redirect(outcome.to, 303);
    case "placed":
      return redirect(outcome.next, { status: 303, headers: outcome.headers });
    case "payment-failed":
      return data<Refusal>({ message: outcome.message }, { status: outcome.status, headers: outcome.headers });
  }
}

/** A refused order (prices changed, say, or a key not this shopper's) shows the review as it is now, with a fresh key. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || actionStatus === 404 || defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, { title: "Review your order", description: "Check everything before you place your order.", path: "/review-order" });

export default function ReviewOrder() {
  const { maintenance, review, idempotencyKey } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (maintenance.closed) {
    return (
      <div>
        <h1>Review your order</h1>
        <StoreMaintenanceNotice window={maintenance.window} />
      </div>
    );
  }
  if (!review || !idempotencyKey) {
    return (
      <div>
        <h1>Review your order</h1>
        <p role="status">
          Your Shopping Cart is empty. <Link to="/store">Visit Our Store</Link>
        </p>
      </div>
    );
  }
  return (
    <div>
      <CheckoutHeading step={3} title="Review your order" />
      {refused?.message ? (
        <div className={forms.summary} role="alert" tabIndex={-1}>
          <h2>Your order was not placed</h2>
          <p>{refused.message}</p>
        </div>
      ) : null}
      <div className={css.layout}>
        <div>
          <section aria-labelledby="items-title">
            <h2 id="items-title">Items</h2>
            <OrderLines lines={review.lines} caption="Items in your order" />
            {review.comingSoon ? <p>Pre-orders are sent, or open to download, on the date they are available.</p> : null}
            {review.chargedLater.length > 0 ? (
              <p>
                Charged when it ships: {review.chargedLater.join(", ")}. Your card is kept at payment and charged for it on that date; you
                pay the rest now.
              </p>
            ) : null}
            <p>
              <Link to="/shopping-cart">Edit your cart</Link>
            </p>
          </section>
          <section aria-labelledby="address-title">
            <h2 id="address-title">{review.method ? "Shipping to" : "Billing address"}</h2>
            <address className={css.address}>
              {review.address.map((line) => (
                <span key={line}>
                  {line}
                  <br />
                </span>
              ))}
            </address>
            <p>Confirmation to {review.email}</p>
            {review.method ? (
              <p>
                Shipping method: {review.method.name} ({review.method.delivery})
              </p>
            ) : (
              <p>Nothing to ship: everything in your order is digital.</p>
            )}
            {review.promo ? <p className={review.promo.ok ? css.good : css.bad}>{review.promo.message}</p> : null}
            <p>
              <Link to="/shipping-payment">Change the address, shipping method or promo code</Link>
            </p>
          </section>
        </div>
        <aside className={css.panel} aria-labelledby="total-title">
          <h2 id="total-title">Total</h2>
          <OrderTotals totals={review.totals} promoCode={review.promo?.code ?? null} shipping={review.method !== null} />
          <Form method="post">
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <input type="hidden" name="shownTotal" value={review.totals.totalCents} />
            <button type="submit" className={primaryButton} disabled={busy}>
              Place order: {formatUsd(review.totals.totalCents)}
            </button>
          </Form>
          <p className={css.muted}>
            {review.totals.totalCents > 0
              ? "You will pay on our payment provider's secure page."
              : "There is nothing to pay for this order."}
          </p>
        </aside>
      </div>
    </div>
  );
}
