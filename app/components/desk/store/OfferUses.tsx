import { Link } from "@remix-run/react";
import * as css from "../desk.css";

export interface ShownUse {
  orderNumber: string;
  email: string;
  usedAt: string;
  /** "In use (paid)", "Given back at …". */
  state: string;
}

/** Who used an offer, on which order and when, the newest first (ADR 091). */
export function OfferUses({ uses, total, noun }: { uses: ShownUse[]; total: number; noun: string }) {
  return (
    <section aria-labelledby="uses-heading">
      <h2 id="uses-heading">Uses</h2>
      {total === 0 ? (
        <p>No order has used this {noun} yet.</p>
      ) : (
        <>
          <p className={css.muted}>
            {total === uses.length
              ? `${total} ${total === 1 ? "order" : "orders"}, the newest first.`
              : `The newest ${uses.length} of ${total} orders.`}
          </p>
          <table className={css.table}>
            <caption className="visually-hidden">Orders that used this {noun}</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Who</th>
                <th scope="col">When</th>
                <th scope="col">Use</th>
              </tr>
            </thead>
            <tbody>
              {uses.map((use) => (
                <tr key={use.orderNumber}>
                  <td data-label="Order">
                    <Link to={`/desk/orders/${use.orderNumber}`} className={css.code}>
                      {use.orderNumber}
                    </Link>
                  </td>
                  <td data-label="Who">{use.email}</td>
                  <td data-label="When">{use.usedAt}</td>
                  <td data-label="Use">{use.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
