import { Link, useFetcher } from "@remix-run/react";
import type { CartLine } from "~/server/store/cart";
import { productCoverPath } from "~/shared/urls";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import type { CartAction } from "~/app/routes/shopping-cart";
import { useHydrated } from "~/app/components/useHydrated";
import * as css from "./cart.css";
import * as controls from "~/app/components/controls.css";
import { LineTypeLabel, UnitPrice } from "./CartText";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";
import { CoverPicture } from "./CoverPicture";

type LineError = { lineId: string; message: string } | null;

/** One section of the cart (items to ship, or digital items) as a table with a stepper per line. */
export function CartLines({
  heading,
  headingId,
  lines,
  error,
}: {
  heading: string;
  headingId: string;
  lines: CartLine[];
  error: LineError;
}) {
  return (
    <section aria-labelledby={headingId} className={css.section}>
      <h2 id={headingId}>{heading}</h2>
      <table className={css.table} aria-labelledby={headingId}>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Format</th>
            <th scope="col">Type</th>
            <th scope="col">Quantity</th>
            <th scope="col" className={css.amount}>
              Price
            </th>
            <th scope="col" className={css.amount}>
              Total
            </th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <LineRow key={line.id} line={line} error={error?.lineId === line.id ? error.message : null} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * A line with its stepper: "−" and "+" post the new quantity (0 removes the line), the box takes
 * any quantity with its Update button. Each is inside the one form it submits, for browsers
 * without the form attribute (w3m). Plain forms; with JS they post through the line's fetcher and
 * the page's data reloads in place.
 */
function LineRow({ line, error }: { line: CartLine; error: string | null }) {
  const fetcher = useFetcher<CartAction>({ key: `cart-line-${line.id}` });
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  const fetcherError = fetcher.state === "idle" && fetcher.data && "message" in fetcher.data ? fetcher.data.message : null;
  const message = fetcherError ?? error;
  const fieldId = `quantity-${line.id}`;
  const hidden = (intent: "update" | "remove") => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="lineId" value={line.id} />
      {hydrated ? <ViaFetcherField /> : null}
    </>
  );
  return (
    <tr>
      <th scope="row">
        <span className={css.lineItem}>
          {line.coverPicture ? (
            <CoverPicture picture={line.coverPicture} alt="" sizes="48px" className={css.thumbnail} />
          ) : (
            <img className={css.thumbnail} src={productCoverPath(line.productSlug)} alt="" width={48} height={64} loading="lazy" />
          )}
          <span>
            <Link to={line.url}>{line.title}</Link>
            {line.retired ? (
              <span className={css.muted}>No longer sold: remove it to place your order.</span>
            ) : line.comingSoon ? (
              <span className={css.muted}>Pre-order{line.availableDate ? `: Available ${formatPublished(line.availableDate)}` : null}</span>
            ) : null}
          </span>
        </span>
      </th>
      <td data-label="Format">{line.format}</td>
      <td data-label="Type">
        <LineTypeLabel type={line.type} />
      </td>
      <td data-label="Quantity">
        <fetcher.Form method="post" action="/shopping-cart">
          {hidden("update")}
          {line.digital ? null : (
            // Enter in the box presses the form's first button: let that be Update, not "−".
            <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={busy}>
              Update
            </button>
          )}
          <div className={css.stepper}>
            <button type="submit" name="set" value={line.quantity - 1} className={css.stepButton} disabled={busy}>
              <span aria-hidden="true">−</span>
              <span className="visually-hidden">Decrease quantity of {line.title}</span>
            </button>
            {line.digital ? (
              <span id={fieldId} className={css.quantityValue}>
                {line.quantity}
              </span>
            ) : (
              <>
                <label htmlFor={fieldId} className="visually-hidden">
                  Quantity of {line.title}
                </label>
                <input
                  key={line.quantity}
                  id={fieldId}
                  name="quantity"
                  defaultValue={line.quantity}
                  inputMode="numeric"
                  className={css.quantityInput}
                  aria-invalid={message ? true : undefined}
                  aria-describedby={message ? `${fieldId}-error` : undefined}
                />
              </>
            )}
            <button
              type="submit"
              name="set"
              value={line.quantity + 1}
              className={css.stepButton}
              disabled={busy || line.quantity >= line.maxQuantity}
            >
              <span aria-hidden="true">+</span>
              <span className="visually-hidden">Increase quantity of {line.title}</span>
            </button>
          </div>
          {line.digital ? (
            <span className={css.muted}>One per order</span>
          ) : (
            <button type="submit" className={controls.linkButton} disabled={busy}>
              Update<span className="visually-hidden"> quantity of {line.title}</span>
            </button>
          )}
        </fetcher.Form>
        {message ? (
          <p id={`${fieldId}-error`} className={css.lineError}>
            {message}
          </p>
        ) : null}
      </td>
      <td data-label="Price" className={css.amount}>
        <UnitPrice unitPriceCents={line.unitPriceCents} listPriceCents={line.listPriceCents} percentOff={line.percentOff} />
      </td>
      <td data-label="Total" className={css.amount}>
        {formatUsd(line.lineTotalCents)}
      </td>
      <td>
        <fetcher.Form method="post" action="/shopping-cart" className={css.inlineForm}>
          {hidden("remove")}
          <button type="submit" className={controls.linkButton} disabled={busy}>
            Remove<span className="visually-hidden"> {line.title}</span>
          </button>
        </fetcher.Form>
      </td>
    </tr>
  );
}
