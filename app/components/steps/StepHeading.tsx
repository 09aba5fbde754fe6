import { Link } from "@remix-run/react";
import * as css from "./steps.css";

// Both purchases' headings in one module, which their pages load as one file (a second module
// would be a chunk of its own, named in the route manifest every page loads).

/** A step of a purchase: its name, and its own address when a buyer may go back to it. */
interface Step {
  name: string;
  to: string | null;
}

/** Checkout's four steps, each at its own address; the confirmation has none to go back to. */
const CHECKOUT_STEPS = [
  { name: "Cart", to: "/shopping-cart" },
  { name: "Shipping and payment", to: "/shipping-payment" },
  { name: "Review", to: "/review-order" },
  { name: "Confirmation", to: null },
] as const;

export type CheckoutStep = 1 | 2 | 3 | 4;

/** Subscribing's four steps; the account and the address are changed from the page itself, not by going back. */
const SUBSCRIPTION_STEPS = [
  { name: "Your account", to: null },
  { name: "Billing address", to: null },
  { name: "Payment", to: null },
  { name: "Receipt", to: null },
] as const;

/** A checkout page's heading: the step bar and "Step 2 of 4: Shipping and payment". */
export function CheckoutHeading({ step, title }: { step: CheckoutStep; title: string }) {
  return <StepHeading steps={CHECKOUT_STEPS} step={step} title={title} label="Checkout steps" />;
}

/** The subscription checkout's heading, the same way: "Step 2 of 4: Subscribe: Digital". */
export function SubscriptionHeading({ step, title }: { step: 1 | 2 | 3; title: string }) {
  return <StepHeading steps={SUBSCRIPTION_STEPS} step={step} title={title} label="Subscription steps" />;
}

/**
 * A purchase page's heading: the step bar, then the title under "Step 2 of 4", which is part of
 * the heading ("Step 2 of 4: Shipping and payment"), so a screen reader announces where the
 * buyer is as the page opens. Steps already done link back, until the last step is reached.
 */
function StepHeading({ steps, step, title, label }: { steps: readonly Step[]; step: number; title: string; label: string }) {
  const finished = step === steps.length;
  return (
    <div className={css.heading}>
      <ol className={css.steps} aria-label={label}>
        {steps.map((s, i) => {
          const number = i + 1;
          const state = number < step ? "done" : number === step ? "current" : "next";
          const name = (
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
              {state === "done" && !finished && s.to ? (
                <Link to={s.to} className={css.stepLink}>
                  {name}
                </Link>
              ) : (
                name
              )}
            </li>
          );
        })}
      </ol>
      <h1 className={css.title}>
        <span className={css.caption}>
          Step {step} of {steps.length}
          <span className="visually-hidden">: </span>
        </span>
        {title}
      </h1>
    </div>
  );
}
