import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { formatUsd } from "../../lib/format";
import { useRootData, type RootData } from "../../lib/root-data";
import { useHydrated } from "../useHydrated";
import { useDismiss } from "../useDismiss";
import * as css from "./cart.css";

/**
 * The header's cart menu: a link to the cart with the number of items; with JS it opens a
 * flyout with the first lines, the total and "View Cart".
 */
export function MiniCart() {
  const cart = useRootData()?.cart;
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLAnchorElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const count = cart?.itemCount ?? 0;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setOpen((o) => !o);
  };
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <span className={css.miniCart} data-cart-count={count}>
      <Link ref={toggle} to="/shopping-cart" onClick={onClick} aria-expanded={hydrated ? open : undefined}>
        Cart ({count}
        <span className="visually-hidden"> {count === 1 ? "item" : "items"}</span>)
      </Link>
      {open && cart ? <MiniCartFlyout cart={cart} onClose={close} /> : null}
    </span>
  );
}

function MiniCartFlyout({ cart, onClose }: { cart: NonNullable<RootData["cart"]>; onClose: () => void }) {
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
          <Link to="/shopping-cart" className={css.buttonLink}>
            View Cart
          </Link>
        </>
      )}
    </div>
  );
}
