// Written out, not asked of Intl: the browser's first Intl.DateTimeFormat loads its locale and
// zone data, 47 ms of an article's hydration in a profile (ADR 103). Server and browser agree.
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A date in the spec's "MMMM DD, YYYY" format, from an ISO date or a UTC timestamp's date part. */
export function formatPublished(isoDate: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  const month = parts ? MONTHS[Number(parts[2]) - 1] : undefined;
  if (!parts || !month) throw new RangeError(`not an ISO date: ${isoDate}`);
  return `${month} ${parts[3]}, ${parts[1]}`;
}
