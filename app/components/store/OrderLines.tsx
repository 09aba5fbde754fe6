import { Form } from "@remix-run/react";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import { primaryButton } from "~/app/components/controls.css";
import { PAY_AGAIN } from "~/shared/preorders";
import { thumbnail } from "./cart.css";
import * as css from "./checkout.css";

export interface LineView {
  title: string;
  format: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  /** A pre-order (ADR 092): "Pre-order: Available {date}". */
  availableDate: string | null;
  /** The product's cover, small beside the title (checkout's summaries): its address, and its sizes if uploaded. */
  cover?: { src: string; srcSet: string | null };
  /** Something the buyer must act on (a pre-order whose card was declined on its date). */
  problem?: string | null;
  /** The buyer can pay for this declined pre-order with another card: the form posts its position to this address. */
  payAgain?: { action: string; position: number } | null;
}

/**
 * An order's or cart's lines as a table: item, format, quantity, price, line total. A summary
 * beside a form (`compact`) gives the item column the room: the quantity and price go under the
 * title, and only the line total has a column of its own.
 */
export function OrderLines({ lines, caption, compact = false }: { lines: LineView[]; caption: string; compact?: boolean }) {
  return (
    <table className={css.lines}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          {compact ? null : (
            <>
              <th scope="col">Quantity</th>
              <th scope="col" className="amount">
                Price
              </th>
            </>
          )}
          <th scope="col" className="amount">
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i}>
            <td>
              <span className={css.lineItem}>
                {l.cover ? (
                  <img
                    className={thumbnail}
                    src={l.cover.src}
                    srcSet={l.cover.srcSet ?? undefined}
                    sizes={l.cover.srcSet ? "48px" : undefined}
                    alt=""
                    width={48}
                    height={64}
                    loading="lazy"
                  />
                ) : null}
                <span>
                  {l.title}
                  <br />
                  <span className={css.muted}>
                    {l.format}
                    {compact ? `, ${l.quantity} × ${formatUsd(l.unitPriceCents)}` : null}
                  </span>
                </span>
              </span>
              {l.availableDate ? (
                <>
                  <br />
                  <span className={css.muted}>Pre-order: Available {formatPublished(l.availableDate)}</span>
                </>
              ) : null}
              {l.problem ? (
                <>
                  <br />
                  <span className={css.bad}>{l.problem}</span>
                </>
              ) : null}
              {l.payAgain ? (
                <Form method="post" action={l.payAgain.action} className={css.noPrint}>
                  <input type="hidden" name="position" value={l.payAgain.position} />
                  <button type="submit" name="intent" value="pay-preorder" className={primaryButton}>
                    {PAY_AGAIN}
                  </button>
                </Form>
              ) : null}
            </td>
            {compact ? null : (
              <>
                <td data-label="Quantity">{l.quantity}</td>
                <td data-label="Price" className="amount">
                  {formatUsd(l.unitPriceCents)}
                </td>
              </>
            )}
            <td data-label="Total" className="amount">
              {formatUsd(l.lineTotalCents)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface TotalsView {
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
}

/** Subtotal, discount, tax, shipping and the total, as a description list. */
export function OrderTotals({ totals, promoCode, shipping }: { totals: TotalsView; promoCode: string | null; shipping: boolean }) {
  return (
    <dl className={css.totals}>
      <dt>Subtotal</dt>
      <dd>{formatUsd(totals.subtotalCents)}</dd>
      {totals.discountCents > 0 ? (
        <>
          <dt>Discount{promoCode ? ` (${promoCode})` : ""}</dt>
          <dd>−{formatUsd(totals.discountCents)}</dd>
        </>
      ) : null}
      <dt>Tax</dt>
      <dd>{formatUsd(totals.taxCents)}</dd>
      {shipping ? (
        <>
          <dt>Shipping</dt>
          <dd>{formatUsd(totals.shippingCents)}</dd>
        </>
      ) : null}
      <dt className="grand">Total</dt>
      <dd className="grand">{formatUsd(totals.totalCents)}</dd>
    </dl>
  );
}
