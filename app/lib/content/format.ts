/** A video's or an episode's length in the spec's h:mm:ss, under an hour too ("0:04:05"). */
export function formatDuration(totalSeconds: number): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${Math.floor(totalSeconds / 3600)}:${two(Math.floor((totalSeconds % 3600) / 60))}:${two(totalSeconds % 60)}`;
}

export function formatAuthors(authors: { name: string }[]): string {
  const names = authors.map((a) => a.name);
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export { formatPublished } from "~/shared/dates";
export { formatUsd } from "~/shared/money";
