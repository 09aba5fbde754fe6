export const SITE_NAME = "Meridian Review";

export const CUSTOMER_SERVICE = {
  phoneUsCanada: "+1 800 555 0142",
  phoneInternational: "+1 617 555 0199",
  email: "customerservice@meridianreview.example",
} as const;

export const GENERIC_ERROR = "We are sorry. We are unable to process your request at this time. Customer Service is available 24/7.";

/** What a reader sees when a form post came from another site and was not acted on. */
export const CROSS_SITE_REFUSED =
  "This form was sent from another site, so we did not act on it. Please go back to the page, reload it and try again.";
