import { z } from "zod";
import { DEFAULT_DAYS, lastDays, MAX_DAYS, readRange, type ReportRange } from "~/server/desk/reports";

// The reports' range, read from the address the same way by the page and its CSV exports (ADR
// 090): `from` and `to`, UTC days, both included. Either left out: the last 30 days end today,
// or start 29 days before `to`. A range that cannot be read is replaced by the default, and said so.

const DAY_MS = 86_400_000;

const querySchema = z.object({
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});

export const BAD_REPORT_RANGE = `The dates could not be read, so the last ${DEFAULT_DAYS} days are shown: dates are days such as 2026-05-14, the first no later than the last, at most ${MAX_DAYS} days apart.`;

export interface ReadReportRange {
  range: ReportRange;
  problem: string | null;
  /** The range as a query string, for the CSV links. */
  query: string;
}

export function readReportRange(url: URL, now = new Date()): ReadReportRange {
  const raw = Object.fromEntries([...url.searchParams].filter(([key, value]) => (key === "from" || key === "to") && value !== ""));
  const parsed = querySchema.safeParse(raw);
  const asked = parsed.success ? parsed.data : { from: "", to: "" };
  const fallback = lastDays(now);
  const to = asked.to ?? fallback.to;
  const from = asked.from ?? (asked.to ? lastDaysBefore(asked.to) : fallback.from);
  const read = parsed.success ? readRange(from, to) : null;
  const range = read ?? fallback;
  return {
    range,
    problem: read ? null : BAD_REPORT_RANGE,
    query: new URLSearchParams({ from: range.from, to: range.to }).toString(),
  };
}

/** The first of the default number of days ending on `to`, or `to` itself when it is not a day (readRange refuses it). */
function lastDaysBefore(to: string): string {
  const end = Date.parse(`${to}T00:00:00.000Z`);
  return Number.isNaN(end) ? to : new Date(end - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
}
