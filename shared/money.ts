// One formatter for the whole process: making an Intl.NumberFormat costs far more than using one.
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** An amount in cents as US dollars, e.g. $1,234.50 (spec: cart amounts as US dollars). */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}
