import { beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { changeBillingAddress, latestBillingAddress } from "~/server/billing/address";
import { invoiceDocument, type Publisher } from "~/server/billing/invoices";
import type { BillingMail } from "~/server/billing/mail";
import { billingOverview } from "~/server/billing/overview";
import { changePlan, quotePlanChange, type PlanChangeQuote } from "~/server/billing/plan-change";
import { runRenewals } from "~/server/billing/renewals";
import type { Database } from "~/server/db/connection";
import { SANDBOX_CARDS, type SandboxProvider } from "~/server/payments/sandbox";
import { findCheckout, issueCheckoutKey, settleCheckout, startCheckout } from "~/server/subscriptions/checkout";
import { findPlan } from "~/server/subscriptions/plans";
import type { BillingAddress } from "~/shared/billing-address";
import { pdfText, readPdf } from "~/tests/helpers/pdf-reader";
import { plainText } from "~/tests/helpers/smtp";
import { dialectName } from "~/tests/helpers/test-db";
import { SITE, NOVEMBER, DAY, useSandboxBilling } from "~/tests/helpers/sandbox-billing";

// Sales tax on subscriptions (ADR 070): the billing address given at checkout decides the tax of
// every charge — the purchase, each renewal, a retry in dunning, an upgrade — by the store's one
// rule, and every invoice records it with its rate and place.

const PUBLISHER: Publisher = { name: "Meridian Review Publishing", addressLines: ["60 Harbor Street"], taxId: null };

const NEW_YORK: BillingAddress = { countryCode: "US", region: "NY" };
const UNITED_KINGDOM: BillingAddress = { countryCode: "GB", region: null };

let db: Database;
let sandbox: SandboxProvider;
let mail: BillingMail;
let mails: () => string[];
const world = useSandboxBilling();
beforeEach(() => ({ db, sandbox, mail, mails } = world));

const renew = () => runRenewals(db, sandbox.billing, mail, NOVEMBER, 7);
/** Moves the sandbox's clock on and renews as of the new time. */
const after = async (days: number) => {
  await sandbox.advanceClock(days * DAY);
  return renew();
};
const charges = () => db.selectFrom("sandbox_charge").selectAll().orderBy("created_at").execute();
const invoices = () => db.selectFrom("invoice").selectAll().orderBy("number").execute();
const subscriptionOf = (userId: string) =>
  db.selectFrom("subscription").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
const receipts = () => mails().map(plainText);
const invoicePdfText = async (id: string) => pdfText((await readPdf((await invoiceDocument(db, id, PUBLISHER, SITE)).pdf)).pages);

async function newReader() {
  return (await insertUser(db, {
    firstName: "Tamsin",
    lastName: "Hale",
    email: `tamsin.${Math.random().toString(36).slice(2)}@example.org`,
    password: "Harbour7!lamp",
    optIn: false,
  }))!;
}

/** Buys the plan at the sandbox's page with `card`, billed to `billing`, as of NOVEMBER. */
async function subscribe(billing: BillingAddress, planId = "digital", card: string = SANDBOX_CARDS.succeeds) {
  const user = await newReader();
  const started = await startCheckout(
    db,
    sandbox,
    {
      userId: user.id,
      email: user.email,
      plan: findPlan(planId)!,
      abTag: "test",
      siteUrl: SITE,
      idempotencyKey: issueCheckoutKey(),
      billing,
    },
    NOVEMBER,
  );
  if (!started.ok) throw new Error(started.problem);
  const session = started.url.split("/").at(-1)!;
  const payment = await sandbox.payment(session);
  expect((await sandbox.pay(session, card, NOVEMBER)).ok).toBe(true);
  expect(await settleCheckout(db, sandbox, started.checkoutId, user.id, NOVEMBER)).toBe("activated");
  return { user, checkoutId: started.checkoutId, payment: payment! };
}

/** A place where tax is due and one where none is, with the tax on Digital (1200), Premium (2000) and an upgrade of 400 between them. */
const PLACES = [
  {
    place: "New York (4%)",
    address: NEW_YORK,
    label: "Tax (NY 4%)",
    digitalTax: 48,
    premiumTax: 80,
    upgradeTax: 16,
    billedTo: "New York, United States",
  },
  {
    place: "the United Kingdom (none)",
    address: UNITED_KINGDOM,
    label: "Tax (United Kingdom 0%)",
    digitalTax: 0,
    premiumTax: 0,
    upgradeTax: 0,
    billedTo: "United Kingdom",
  },
] as const;

describe.each(PLACES)(`sales tax billed to $place (${dialectName})`, ({ address, label, digitalTax, premiumTax, upgradeTax, billedTo }) => {
  it("charges the purchase with its tax, and the invoice, its PDF and the receipt show the rate and the place", async () => {
    const { user, checkoutId, payment } = await subscribe(address);
    expect(payment.amountCents).toBe(1200 + digitalTax);
    expect((await findCheckout(db, checkoutId, user.id))?.tax).toEqual({ cents: digitalTax, label });
    expect(await subscriptionOf(user.id)).toMatchObject({ billing_country: address.countryCode, billing_region: address.region });
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({
      kind: "purchase",
      amount_cents: 1200,
      tax_cents: digitalTax,
      billing_country: address.countryCode,
      billing_region: address.region,
    });
    const text = await invoicePdfText(invoice!.id);
    expect(text).toContain(billedTo);
    expect(text).toContain(`${label}: $0.${String(digitalTax).padStart(2, "0")}`);
    expect(text).toContain(`Total paid: $12.${String(digitalTax).padStart(2, "0")}`);

    expect(await renew()).toMatchObject({ receipts: 1 });
    const [receipt] = receipts();
    expect(receipt).toContain("Digital: $12.00");
    expect(receipt).toContain(`${label}: $0.${String(digitalTax).padStart(2, "0")}`);
    expect(receipt).toContain(`Amount paid: $12.${String(digitalTax).padStart(2, "0")}`);
  });

  it("charges each renewal the price and its tax, as the billing page said it would", async () => {
    const { user } = await subscribe(address);
    const overview = await billingOverview(db, user.id, NOVEMBER);
    expect(overview).toMatchObject({ kind: "web", renewal: { priceCents: 1200, tax: { cents: digitalTax, label } } });
    expect(await after(31)).toMatchObject({ renewed: 1 });
    expect(await charges()).toMatchObject([{ amount_cents: 1200 + digitalTax, status: "succeeded" }]);
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", amount_cents: 1200, tax_cents: digitalTax });
  });

  it("charges a retry that goes through in dunning the tax too", async () => {
    const { user } = await subscribe(address, "digital", SANDBOX_CARDS.declinesLater);
    expect(await after(31)).toMatchObject({ declined: 1 });
    const { payment_method_id } = await subscriptionOf(user.id);
    await db.updateTable("sandbox_payment_method").set({ declines_off_session: 0 }).where("id", "=", payment_method_id!).execute();
    expect(await after(1)).toMatchObject({ recovered: 1 });
    expect(await charges()).toMatchObject([
      { amount_cents: 1200 + digitalTax, status: "declined" },
      { amount_cents: 1200 + digitalTax, status: "succeeded" },
    ]);
    expect((await invoices()).at(-1)).toMatchObject({ kind: "renewal", amount_cents: 1200, tax_cents: digitalTax });
  });

  it("quotes an upgrade with its tax and charges exactly that", async () => {
    const { user } = await subscribe(address);
    const halfway = new Date("2026-11-30T12:00:00Z");
    await sandbox.advanceClock(15 * DAY);
    const quote = (await quotePlanChange(db, user.id, "premium", halfway)) as PlanChangeQuote;
    expect(quote).toMatchObject({ amountCents: 400, tax: { cents: upgradeTax, label }, renewalTax: { cents: premiumTax } });
    expect(await changePlan(db, sandbox, user.id, "premium", quote.quotedAt, halfway)).toBe("upgraded");
    expect(await charges()).toMatchObject([{ amount_cents: 400 + upgradeTax }]);
    expect((await invoices()).at(-1)).toMatchObject({ kind: "upgrade", amount_cents: 400, tax_cents: upgradeTax });
  });
});

describe(`sales tax: addresses, rates and rounding (${dialectName})`, () => {
  it("rounds half up to the cent, and taxes Canada's GST whatever the province", async () => {
    // 7.25% of $450.00 is $32.625: $32.63.
    const california = await subscribe({ countryCode: "US", region: "CA" }, "executive");
    expect(california.payment.amountCents).toBe(45000 + 3263);
    const ontario = await subscribe({ countryCode: "CA", region: "ON" }, "premium");
    expect(ontario.payment.amountCents).toBe(2000 + 100);
    expect((await findCheckout(db, ontario.checkoutId, ontario.user.id))?.tax.label).toBe("Tax (Canada GST 5%)");
    // A state where the publisher collects none.
    const oregon = await subscribe({ countryCode: "US", region: "OR" });
    expect(oregon.payment.amountCents).toBe(1200);
    await after(366);
    const renewal = (await invoices()).find((i) => i.user_id === california.user.id && i.kind === "renewal");
    expect(renewal).toMatchObject({ amount_cents: 45000, tax_cents: 3263, tax_rate_bp: 725 });
  });

  it("applies a new billing address from the next charge on; what was invoiced keeps its own", async () => {
    const { user } = await subscribe(UNITED_KINGDOM);
    await sandbox.advanceClock(10 * DAY);
    expect(await changeBillingAddress(db, user.id, NEW_YORK, NOVEMBER)).toBe("changed");
    expect(await latestBillingAddress(db, user.id)).toEqual(NEW_YORK);
    expect(await billingOverview(db, user.id, NOVEMBER)).toMatchObject({
      billingAddress: NEW_YORK,
      renewal: { priceCents: 1200, tax: { cents: 48, label: "Tax (NY 4%)" } },
    });
    const [purchase] = await invoices();
    expect(purchase).toMatchObject({ tax_cents: 0, billing_country: "GB" });
    expect(await invoicePdfText(purchase!.id)).toContain("Tax (United Kingdom 0%): $0.00");

    expect(await after(21)).toMatchObject({ renewed: 1 });
    expect(await charges()).toMatchObject([{ amount_cents: 1248 }]);
    const [, renewal] = await invoices();
    expect(renewal).toMatchObject({ tax_cents: 48, tax_rate_bp: 400, billing_country: "US", billing_region: "NY" });
    expect(await invoicePdfText(renewal!.id)).toContain("Tax (NY 4%): $0.48");
  });

  it("does not tax a plan bought before addresses were asked until its subscriber adds one", async () => {
    const { user } = await subscribe(NEW_YORK);
    await db.updateTable("subscription").set({ billing_country: null, billing_region: null }).where("user_id", "=", user.id).execute();
    expect(await billingOverview(db, user.id, NOVEMBER)).toMatchObject({
      billingAddress: null,
      renewal: { tax: { cents: 0, label: "Tax (no billing address on file)" } },
    });
    expect(await after(31)).toMatchObject({ renewed: 1 });
    expect((await invoices()).at(-1)).toMatchObject({ tax_cents: 0, tax_rate_bp: 0, billing_country: null });
    expect(await changeBillingAddress(db, user.id, { countryCode: "US", region: "TX" }, NOVEMBER)).toBe("changed");
    expect(await after(31)).toMatchObject({ renewed: 1 });
    expect((await charges()).at(-1)).toMatchObject({ amount_cents: 1275 });
  });

  it("refuses an unknown country, a US or Canadian address without its state or province, and changes nothing", async () => {
    const user = await newReader();
    const start = (billing: BillingAddress) =>
      startCheckout(
        db,
        sandbox,
        {
          userId: user.id,
          email: user.email,
          plan: findPlan("digital")!,
          abTag: "test",
          siteUrl: SITE,
          idempotencyKey: issueCheckoutKey(),
          billing,
        },
        NOVEMBER,
      );
    expect(await start({ countryCode: "ZZ", region: null })).toEqual({
      ok: false,
      problem: "bad-address",
      fields: { countryCode: "Please choose your country from the list." },
    });
    expect(await start({ countryCode: "US", region: null })).toMatchObject({
      fields: { region: "Please choose your state of the United States." },
    });
    expect(await start({ countryCode: "CA", region: "NY" })).toMatchObject({
      fields: { region: "Please choose a province or territory of Canada from the list." },
    });
    expect(await db.selectFrom("subscription_checkout").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);

    const { user: subscriber } = await subscribe(NEW_YORK);
    expect(await changeBillingAddress(db, subscriber.id, { countryCode: "US", region: "ZZ" }, NOVEMBER)).toEqual({
      problem: "bad-address",
      fields: { region: "Please choose a state of the United States from the list." },
    });
    expect(await subscriptionOf(subscriber.id)).toMatchObject({ billing_country: "US", billing_region: "NY" });
    expect(await changeBillingAddress(db, user.id, NEW_YORK, NOVEMBER)).toBe("no-renewing-plan");
  });
});
