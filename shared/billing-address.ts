import { COUNTRIES, isCountry, regionsOf } from "./regions";

// A subscriber's billing address, as far as sales tax needs it (ADR 070): the country and, in the
// US and Canada, the state or province. Shared by the forms' schemas (for their messages before a
// submit) and server/billing, which refuses an address these rules do not allow.

export interface BillingAddress {
  /** ISO 3166-1 alpha-2, one of the countries in shared/regions. */
  countryCode: string;
  /** A state's or province's code in the US and Canada; null elsewhere. */
  region: string | null;
}

export type BillingAddressField = "countryCode" | "region";

/** Trims and upper-cases what a form sent; the region is kept only where the country has a list of them. */
export function readBillingAddress(input: { countryCode?: string | null; region?: string | null }): BillingAddress {
  const countryCode = (input.countryCode ?? "").trim().toUpperCase();
  const region = (input.region ?? "").trim().toUpperCase();
  return { countryCode, region: regionsOf(countryCode).length > 0 && region ? region : null };
}

/** What is wrong with a billing address, one message per field (none: it is fine). */
export function billingAddressProblems(address: BillingAddress): Partial<Record<BillingAddressField, string>> {
  if (!address.countryCode) return { countryCode: "Please choose your country." };
  if (!isCountry(address.countryCode)) return { countryCode: "Please choose your country from the list." };
  const regions = regionsOf(address.countryCode);
  if (regions.length === 0) return {};
  const kind = address.countryCode === "CA" ? "province or territory of Canada" : "state of the United States";
  if (!address.region) return { region: `Please choose your ${kind}.` };
  if (!regions.some((r) => r.code === address.region)) return { region: `Please choose a ${kind} from the list.` };
  return {};
}

export const isBillingAddress = (address: BillingAddress) => Object.keys(billingAddressProblems(address)).length === 0;

/** The address in words, e.g. "New York, United States" or "United Kingdom". */
export function describeBillingAddress(address: BillingAddress): string {
  const country = COUNTRIES.find((c) => c.code === address.countryCode)?.name ?? address.countryCode;
  const region = address.region && regionsOf(address.countryCode).find((r) => r.code === address.region)?.name;
  return region ? `${region}, ${country}` : country;
}
