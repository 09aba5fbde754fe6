import { Link } from "@remix-run/react";
import * as css from "./checkout-steps.css";

/** Checkout's four steps, each at its own address; the confirmation has none to go back to. */
const STEPS = [
  { name: "Cart", to: "/shopping-cart" },
  { name: "Shipping and payment", to: "/shipping-payment" },
  { name: "Review", to: "/review-order" },
  { name: "Confirmation", to: null },
] as const;

export type CheckoutStep = 1 | 2 | 3 | 4;

/**
 * A checkout page's heading: the step bar, then the title under "Step 2 of 4", which is part of
 * the heading ("Step 2 of 4: Shipping and payment"), so a screen reader announces where the
 * shopper is as the page opens. Steps already done link back, until the order is placed.
 */
export function CheckoutHeading({ step, title }: { step: CheckoutStep; title: string }) {
  const placed = step === STEPS.length;
  return (
    <div className={css.heading}>
      <ol className={css.steps} aria-label="Checkout steps">
        {STEPS.map((s, i) => {
          const number = i + 1;
          const state = number < step ? "done" : number === step ? "current" : "next";
          const label = (
            <>
              <span className={css.marker} aria-hidden="true">
                {state === "done" ? "✓" : number}
              </span>
              <span className={state === "current" ? undefined : css.nameAside}>
                {s.name}
                {state === "done" ? <span className="visually-hidden"> (done)</span> : null}
              </span>
            </>
          );
          return (
            <li key={s.name} className={css.step} data-state={state} aria-current={state === "current" ? "step" : undefined}>
              {state === "done" && !placed && s.to ? (
                <Link to={s.to} className={css.stepLink}>
                  {label}
                </Link>
              ) : (
                label
              )}
            </li>
          );
        })}
      </ol>
      <h1 className={css.title}>
        <span className={css.caption}>
          Step {step} of {STEPS.length}
          <span className="visually-hidden">: </span>
        </span>
        {title}
      </h1>
    </div>
  );
}
