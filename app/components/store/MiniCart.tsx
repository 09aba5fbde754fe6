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
      <Link
        ref={toggle}
        to="/shopping-cart"
        className={css.miniCartLink}
        aria-label={`Cart (${count} ${count === 1 ? "item" : "items"})`}
        onClick={onClick}
        aria-expanded={hydrated ? open : undefined}
      >
        <CartIcon />
        <span className={css.miniCartWord}>Cart (</span>
        <span className={count > 0 ? css.miniCartCount : css.miniCartWord}>{count}</span>
        <span className="visually-hidden"> {count === 1 ? "item" : "items"}</span>
        <span className={css.miniCartWord}>)</span>
      </Link>
      {open && cart ? <MiniCartFlyout cart={cart} onClose={close} /> : null}
    </span>
  );
}

/** Shown on phones, where the count sits on the icon and the words are left to screen readers. */
function CartIcon() {
  return (
    <svg className={css.miniCartIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M2 3h3l2.4 11.2a1.5 1.5 0 0 0 1.5 1.2h8.9a1.5 1.5 0 0 0 1.5-1.1L21 7H6.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="9.5" cy="20" r="1.6" fill="currentColor" />
      <circle cx="17.5" cy="20" r="1.6" fill="currentColor" />
    </svg>
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
