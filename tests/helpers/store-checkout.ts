import type { MailMessage, Mailer } from "~/server/adapters/mail";
import type { BillingMail } from "~/server/billing/mail";
import type { Database } from "~/server/db/connection";
import type { PaymentProvider } from "~/server/payments/provider";
import { addToCart, createCart, readCart, userCartId } from "~/server/store/cart";
import { buildReview, EMPTY_DRAFT, readDraft, saveDraft } from "~/server/store/checkout";
import type { Order } from "~/server/store/order-records";
import { issueIdempotencyKey, submitOrder, type SubmitOutcome } from "~/server/store/order-submit";
import { normalizeAddress } from "~/shared/address";
import { noonAround } from "./seed-dates";

// Orders placed as a shopper places them, through the store's own cart, checkout draft, review
// and submission (store-orders.ts writes them straight into the tables instead), and what the
// tests around them share: the store open at noon in New York, an address, a recording mailer.

/** The store's settings with the store open, its daily maintenance window as the publisher sets it. */
export const STORE_OPEN = { MAINTENANCE_MODE: false, STORE_MAINTENANCE_WINDOW: "07:30-10:00", STORE_TIMEZONE: "America/New_York" } as const;

/** Noon in New York on a weekday: outside the store's maintenance window. */
export const NOON_IN_NEW_YORK = new Date("2026-11-24T17:00:00Z");

/** A New York address (sales tax, standard shipping), as the checkout keeps it. */
export const NY_ADDRESS = normalizeAddress({
  firstName: "Ada",
  lastName: "Byron",
  address1: "1 Main St",
  city: "Albany",
  state: "NY",
  postalCode: "12207",
  countryCode: "US",
});

/** A mailer that keeps what it sends (`sent`), in the billing mails' settings (`mail`). */
export function recordingMail(): { sent: MailMessage[]; mail: BillingMail } {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      sent.push(message);
      return { messageId: `<${sent.length}@test>` };
    },
  };
  const mail: BillingMail = {
    mailer,
    siteUrl: "https://meridian.test",
    publisher: { name: "Meridian Review", addressLines: ["1 Press Lane", "Albany, NY"], taxId: null },
  };
  return { sent, mail };
}

/** Who places an order: a reader (their cart, their account's address) or a guest with an address. */
export type Shopper = { reader: { id: string; email: string } } | { guest: string };

/**
 * A cart holding one of each availability, as the shopper's checkout leaves it before the review:
 * shipped to NY_ADDRESS by the standard method, payment confirmed.
 */
export async function checkoutCart(
  db: Database,
  shopper: Shopper,
  availabilityIds: number[],
  options: { at?: Date; promoCode?: string } = {},
): Promise<string> {
  const cart = "reader" in shopper ? await userCartId(db, shopper.reader.id, true) : await createCart(db, null, options.at);
  for (const availabilityId of availabilityIds) {
    const added = await addToCart(db, cart, { availabilityId, quantity: 1, referral: null }, options.at);
    if (!added.ok) throw new Error(`availability ${availabilityId} not added: ${JSON.stringify(added)}`);
  }
  await saveDraft(db, cart, {
    ...EMPTY_DRAFT,
    email: "reader" in shopper ? shopper.reader.email : shopper.guest,
    address: NY_ADDRESS,
    shippingMethod: "standard",
    confirmed: true,
    promoCode: options.promoCode ?? "",
  });
  return cart;
}

/** Submits the cart's order at `at` (a reader's, or a guest's) for the total its review shows then, as the review page's form does. */
export async function submitCart(
  db: Database,
  cart: string,
  at: Date,
  options: { reader?: { id: string; email: string }; provider?: Pick<PaymentProvider, "savedCardCharges"> } = {},
): Promise<SubmitOutcome> {
  const account = { userId: options.reader?.id ?? null, accountEmail: options.reader?.email ?? null };
  const review = await buildReview(db, { cart: await readCart(db, cart, at), draft: await readDraft(db, cart), ...account }, at);
  if (!review.ok) throw new Error(review.problem);
  return submitOrder(
    db,
    STORE_OPEN,
    {
      cartId: cart,
      ...account,
      idempotencyKey: issueIdempotencyKey(),
      shownTotalCents: review.review.totals.totalCents,
      ...(options.provider ? { provider: options.provider } : {}),
    },
    at,
  );
}

/** The order a submission placed; anything else fails the test with what it was. */
export function placed(outcome: SubmitOutcome): Order {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return outcome.order;
}

/** An order of one of each availability placed through the real cart, checkout and review at `at`, awaiting payment through `provider`. */
export async function placeOrder(
  db: Database,
  shopper: Shopper,
  availabilityIds: number[],
  at: Date,
  provider?: Pick<PaymentProvider, "savedCardCharges">,
): Promise<Order> {
  const cart = await checkoutCart(db, shopper, availabilityIds, { at });
  return placed(await submitCart(db, cart, at, { ...("reader" in shopper ? { reader: shopper.reader } : {}), provider }));
}

/**
 * What pre-order tests order: the seed's first coming-soon ebook and hardcover, its first hardcover
 * on sale, and noon in New York the day before the coming-soon date and the day after, read from
 * the database (the seed puts the date days after seeding).
 */
export async function preorderCatalogue(db: Database) {
  const first = async (code: string, status: "A" | "F") =>
    db
      .selectFrom("product_availability")
      .select(["id", "available_date"])
      .where("code", "=", code)
      .where("status", "=", status)
      .orderBy("id")
      .executeTakeFirstOrThrow();
  const [soonEbook, soonHardcover, onSaleHardcover] = [await first("KND", "F"), await first("HBK", "F"), await first("HBK", "A")];
  const days = [soonEbook.available_date!, soonHardcover.available_date!].sort();
  return {
    soonEbook: soonEbook.id,
    soonHardcover: soonHardcover.id,
    onSaleHardcover: onSaleHardcover.id,
    dayBefore: noonAround(days[0]!).dayBefore,
    dayAfter: noonAround(days[1]!).dayAfter,
  };
}
