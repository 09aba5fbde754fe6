import { Link, useLocation } from "@remix-run/react";
import { Suspense, useEffect, useRef, useState, type MouseEvent } from "react";
import { lazyEnhancement } from "~/app/lib/http/lazy-enhancement";
import { useRootData } from "~/app/lib/http/root-data";
import { useHydrated } from "~/app/components/useHydrated";
import * as css from "./cart.css";

// The flyout's code is not part of every page: it loads when the pointer or focus reaches the
// cart link, and the link itself goes to the cart until then.
const MiniCartFlyout = lazyEnhancement(() => import("./MiniCartFlyout"));

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
        onPointerEnter={MiniCartFlyout.preload}
        onFocus={MiniCartFlyout.preload}
        aria-expanded={hydrated ? open : undefined}
      >
        <CartIcon />
        <span className={css.miniCartWord}>Cart (</span>
        <span className={count > 0 ? css.miniCartCount : css.miniCartWord}>{count}</span>
        <span className="visually-hidden"> {count === 1 ? "item" : "items"}</span>
        <span className={css.miniCartWord}>)</span>
      </Link>
      {open && cart ? (
        <Suspense fallback={null}>
          <MiniCartFlyout cart={cart} onClose={close} />
        </Suspense>
      ) : null}
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
