import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { formatUsd } from "~/app/lib/content/format";
import type { RootData } from "~/app/lib/http/root-data";
import { useDismiss } from "~/app/components/useDismiss";
import * as css from "./cart.css";
import { primaryButton } from "~/app/components/controls.css";

/** The header cart's flyout: the first lines, the total and "View Cart". */
export default function MiniCartFlyout({ cart, onClose }: { cart: NonNullable<RootData["cart"]>; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(panel, onClose);
  // Focus moves into the flyout once, when it opens.
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>("a")?.focus();
  }, []);
  return (
    <div ref={panel} className={css.miniCartFlyout} role="dialog" aria-label="Your shopping cart">
      {cart.lines.length === 0 ? (
        <>
          <p>Your Shopping Cart is empty.</p>
          <Link to="/store">Visit Our Store</Link>
        </>
      ) : (
        <>
          <ul className={css.miniCartLines}>
            {cart.lines.map((line) => (
              <li key={line.id} className={css.miniCartLine}>
                <span>
                  <Link to={line.url}>{line.title}</Link> <span className={css.muted}>{line.format}</span>
                </span>
                <span className={css.miniCartAmount}>
                  Qty {line.quantity}
                  <span className={css.block}>{formatUsd(line.lineTotalCents)}</span>
                </span>
              </li>
            ))}
          </ul>
          {cart.moreLines > 0 ? <p>and {cart.moreLines} more in your cart</p> : null}
          <p>
            <strong>Total: {formatUsd(cart.totalCents)}</strong>
          </p>
          <Link to="/shopping-cart" className={primaryButton}>
            View Cart
          </Link>
        </>
      )}
    </div>
  );
}
