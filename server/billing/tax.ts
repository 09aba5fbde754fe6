import type { SalesTaxRate } from "~/server/payments/provider";
import { taxCents, taxRateBasisPoints } from "~/server/store/tax";
import type { BillingAddress } from "~/shared/billing-address";
import { formatUsd } from "~/shared/money";
import { COUNTRIES } from "~/shared/regions";

// Sales tax on subscriptions (ADR 070): the store's one rule (server/store/tax.ts) applied to the
// subscriber's billing address, on every charge and every price shown before one. A subscription
// without a billing address (bought before addresses were asked) is not taxed until one is added.

export interface SubscriptionTax {
  /** The rate, in basis points (400 = 4%). */
  basisPoints: number;
  /** The tax on the amount, rounded half up to the cent, as Stripe rounds each line. */
  cents: number;
  /** How the tax line reads, e.g. "Tax (NY 4%)". */
  label: string;
  /** The rate as a provider that adds the tax itself keeps it (Stripe's tax rates); null when none is due. */
  rate: SalesTaxRate | null;
}

/** The tax on `amountCents` billed to `address`. */
export function subscriptionTax(amountCents: number, address: BillingAddress | null): SubscriptionTax {
  if (!address) return { basisPoints: 0, cents: 0, label: taxLabel(null, 0), rate: null };
  const basisPoints = taxRateBasisPoints(address.countryCode, address.region);
  return {
    basisPoints,
    cents: taxCents(amountCents, address.countryCode, address.region),
    label: taxLabel(address, basisPoints),
    rate: basisPoints > 0 ? salesTaxRate(address, basisPoints) : null,
  };
}

/** A price and the tax charged with it, as every page and mail shows them: "$12.48 ($12.00 + Tax (NY 4%) $0.48)", or "$12.00" untaxed. */
export const priceWithTax = (amountCents: number, tax: Pick<SubscriptionTax, "cents" | "label">) =>
  // Where none is due the price stands alone; the invoice still has its tax line.
  tax.cents === 0
    ? formatUsd(amountCents)
    : `${formatUsd(amountCents + tax.cents)} (${formatUsd(amountCents)} + ${tax.label} ${formatUsd(tax.cents)})`;

/** "Tax (NY 4%)", "Tax (Canada GST 5%)", "Tax (United Kingdom 0%)"; without an address, says so. */
export function taxLabel(address: BillingAddress | null, basisPoints: number): string {
  if (!address) return "Tax (no billing address on file)";
  return `Tax (${place(address)} ${basisPoints / 100}%)`;
}

function place(address: BillingAddress): string {
  if (address.countryCode === "US") return address.region ?? "US";
  if (address.countryCode === "CA") return "Canada GST";
  return COUNTRIES.find((c) => c.code === address.countryCode)?.name ?? address.countryCode;
}

/** One rate at a provider per place and percentage: a new percentage is a new key, as a new price is. */
function salesTaxRate(address: BillingAddress, basisPoints: number): SalesTaxRate {
  // Canada's GST is federal: one rate for every province.
  const region = address.countryCode === "US" ? address.region : null;
  return {
    key: ["sales-tax", address.countryCode, region, basisPoints].filter((part) => part !== null).join(":"),
    countryCode: address.countryCode,
    region,
    basisPoints,
    displayName: address.countryCode === "CA" ? "GST" : "Sales tax",
  };
}

/** A row's billing address (subscription, checkout or invoice columns); null when none was given. */
export const billingAddressOf = (row: { billing_country: string | null; billing_region: string | null }): BillingAddress | null =>
  row.billing_country ? { countryCode: row.billing_country, region: row.billing_region } : null;

/** The columns an address is stored in. */
export const billingAddressColumns = (address: BillingAddress | null) => ({
  billing_country: address?.countryCode ?? null,
  billing_region: address?.region ?? null,
});

/** What an invoice records of the tax it charged: the amount, the rate and where the buyer was billed. */
export const invoiceTaxColumns = (tax: SubscriptionTax, address: BillingAddress | null) => ({
  tax_cents: tax.cents,
  tax_rate_bp: tax.basisPoints,
  ...billingAddressColumns(address),
});
