import type { Estimate } from "~/server/store/pricing";
import { formatUsd } from "~/app/lib/content/format";
import * as css from "./cart.css";

const LATER = "Calculated at checkout";

/** Subtotal, estimated tax and shipping (once the shopper has asked for an estimate) and the grand total. */
export function CartTotals({ subtotalCents, estimate }: { subtotalCents: number; estimate: Estimate | null }) {
  return (
    <section aria-labelledby="totals-title" className={css.section}>
      <h2 id="totals-title">Order summary</h2>
      <dl className={css.totals}>
        <dt>Subtotal</dt>
        <dd>{formatUsd(subtotalCents)}</dd>
        <dt>Estimated tax</dt>
        <dd>{estimate ? formatUsd(estimate.taxCents) : LATER}</dd>
        <dt>Shipping{estimate?.shipping ? ` (${estimate.shipping.name})` : ""}</dt>
        <dd>{estimate ? (estimate.shipping ? formatUsd(estimate.shipping.cents) : "Nothing to ship") : LATER}</dd>
        <dt className={css.grandTotal}>Grand total</dt>
        <dd className={css.grandTotal}>
          {formatUsd(estimate?.grandTotalCents ?? subtotalCents)}
          {estimate ? null : <span className={css.muted}>before tax and shipping</span>}
        </dd>
      </dl>
      <p className={css.muted} id="cart-prices">
        Prices are today&apos;s: your cart shows each item at its current price, so a price that changes before you order changes here too.
        Your order keeps the prices it is placed at.
      </p>
    </section>
  );
}
