/**
 * Sales tax the store collects, by destination: a state-level rate in the US states where the
 * publisher has nexus, Canada's GST, nothing elsewhere (exports). Rates in basis points.
 */
const US_STATE_RATES: Record<string, number> = { CA: 725, FL: 600, IL: 625, MA: 625, NJ: 663, NY: 400, PA: 600, TX: 625, WA: 650 };
const CANADA_GST = 500;

export function taxRateBasisPoints(countryCode: string, region: string | null): number {
  if (countryCode === "US") return US_STATE_RATES[region ?? ""] ?? 0;
  if (countryCode === "CA") return CANADA_GST;
  return 0;
}

/** Tax on a taxable amount in cents, rounded half up to the cent. */
export function taxCents(taxableCents: number, countryCode: string, region: string | null): number {
  return Math.round((Math.max(0, taxableCents) * taxRateBasisPoints(countryCode, region)) / 10_000);
}
