// A fixed locale and zone, so that the server's rendering and the browser's hydration agree.
const PUBLISHED = new Intl.DateTimeFormat("en-US", { month: "long", day: "2-digit", year: "numeric", timeZone: "UTC" });

/** Publication date in the spec's "MMMM DD, YYYY" format, from an ISO date (a timestamp's date part). */
export function formatPublished(isoDate: string): string {
  return PUBLISHED.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** Duration as h:mm:ss (spec), or m:ss under an hour. */
export function formatDuration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = String(totalSeconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function formatAuthors(authors: { name: string }[]): string {
  const names = authors.map((a) => a.name);
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export { formatUsd } from "../../shared/money";
