/** The button on the buyer's order page that pays for a pre-order whose card was declined on its date (ADR 092); its mail names it. */
export const PAY_AGAIN = "Pay for this pre-order with another card";
