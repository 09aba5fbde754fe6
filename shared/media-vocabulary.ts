// The words of videos' and episodes' forms (ADR 083) that pages show before their schemas load:
// kept apart from shared/media-fields.ts so that a desk page loads no zod before it hydrates.

export const EPISODE_TYPES = ["full", "bonus", "trailer"] as const;
export type EpisodeType = (typeof EPISODE_TYPES)[number];
export const EPISODE_TYPE_NAMES: Record<EpisodeType, string> = { full: "Full episode", bonus: "Bonus", trailer: "Trailer" };

/** Seconds from "12:30", "1:02:03" or "750"; undefined for anything else. */
export function parseDuration(value: string): number | undefined {
  const match = /^(?:(?:(\d{1,2}):)?(\d{1,3}):)?(\d{1,5})$/.exec(value.trim());
  if (!match) return undefined;
  const [, h, mm, ss] = match;
  if (mm !== undefined && Number(ss) > 59) return undefined;
  if (h !== undefined && Number(mm) > 59) return undefined;
  return Number(h ?? 0) * 3600 + Number(mm ?? 0) * 60 + Number(ss);
}

/** "12:30" or "1:02:03", as the form shows a length. */
export function durationText(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const rest = `${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return h > 0 ? `${h}:${rest}` : rest.replace(/^0/, "");
}
