import { StepHeading } from "~/app/components/steps/StepHeading";

/** Checkout's four steps, each at its own address; the confirmation has none to go back to. */
const STEPS = [
  { name: "Cart", to: "/shopping-cart" },
  { name: "Shipping and payment", to: "/shipping-payment" },
  { name: "Review", to: "/review-order" },
  { name: "Confirmation", to: null },
] as const;

export type CheckoutStep = 1 | 2 | 3 | 4;

/** A checkout page's heading: the step bar and "Step 2 of 4: Shipping and payment". */
export function CheckoutHeading({ step, title }: { step: CheckoutStep; title: string }) {
  return <StepHeading steps={STEPS} step={step} title={title} label="Checkout steps" />;
}
