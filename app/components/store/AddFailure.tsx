import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";
import * as css from "./cart.css";

export const ADD_FAILED = "Our apologies, something went wrong.";

export interface AddFailureDetails {
  reason: string;
  productIds: string[];
  /** The product page the shopper came from, when it is one of ours. */
  productUrl: string | null;
}

/** Spec: a failed add shows the apology with Customer Service's numbers and the product ids. */
export function AddFailure({ failure, headingLevel, after }: { failure: AddFailureDetails; headingLevel: 1 | 2; after?: ReactNode }) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <div className={css.failure} role="alert" aria-labelledby="add-failed-title">
      <Heading id="add-failed-title">{ADD_FAILED}</Heading>
      <p>Nothing was added to your cart. {failure.reason}</p>
      {failure.productIds.length > 0 ? <p>Product id: {failure.productIds.join(", ")}</p> : null}
      <p>
        Customer Service can help, 24 hours a day: {CUSTOMER_SERVICE.phoneUsCanada} (US and Canada), {CUSTOMER_SERVICE.phoneInternational}{" "}
        (international), <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>.
      </p>
      <div className={css.actions}>
        {failure.productUrl ? <Link to={failure.productUrl}>Back to the product</Link> : <Link to="/store">Visit Our Store</Link>}
        {after}
      </div>
    </div>
  );
}
