// Every cookie the site sets, what for and for how long, as the privacy policy lists them
// (ADR 089). Each is strictly necessary for something the visitor asked for, so none waits for
// consent. tests/unit/site-cookies.test.ts fails when a cookie is set in app/ but not listed here
// (or listed but no longer set): the policy cannot silently fall out of step with the site.

export interface SiteCookie {
  name: string;
  /** What it does for the visitor. */
  purpose: string;
  /** How long the browser keeps it. */
  lasts: string;
}

export const SITE_COOKIES: readonly SiteCookie[] = [
  {
    name: "mr_session",
    purpose: "Keeps you signed in: a random identifier, signed by us. We store only a one-way hash of it.",
    lasts: "30 days, or until you sign out",
  },
  {
    name: "mr_visitor",
    purpose:
      "For a guest: counts the free articles you have read this month (the sample of articles you can read before you register or subscribe), and remembers the messages you closed.",
    lasts: "2 years",
  },
  { name: "mr_cart", purpose: "Holds a guest's shopping cart.", lasts: "90 days" },
  { name: "mr_cart_estimate", purpose: "Remembers where your cart is to be sent, for its shipping and tax estimate.", lasts: "90 days" },
  { name: "mr_guest_orders", purpose: "Lets a guest open the orders they placed from this browser.", lasts: "7 days" },
  {
    name: "mr_checkout_complete",
    purpose: "Finishes setting up your subscription when you come back from paying at the payment provider.",
    lasts: "1 day at most; it is deleted once used",
  },
  { name: "mr_gift", purpose: "Shows a subscriber the gift link they have just made, once.", lasts: "1 minute" },
  { name: "text_size", purpose: "Remembers the text size you chose.", lasts: "1 year" },
  { name: "mr_desk_flash", purpose: "For staff at the desk only: shows a new code or link once.", lasts: "5 minutes" },
];
