// Written out, not asked of Intl: a browser's first Intl.NumberFormat loads its locale data while
// the page hydrates (ADR 103).
/** An amount in cents as US dollars, e.g. $1,234.50 (spec: cart amounts as US dollars). */
export function formatUsd(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${cents < 0 && whole > 0 ? "-" : ""}$${dollars}.${String(whole % 100).padStart(2, "0")}`;
}
