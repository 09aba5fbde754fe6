// The days a report covers (ADR 090): whole UTC days, the first and the last included.

export interface ReportRange {
  /** The first day, YYYY-MM-DD (UTC). */
  from: string;
  /** The last day, YYYY-MM-DD (UTC), included. */
  to: string;
}

/** What the desk shows when no range is asked for: the last 30 days, today included. */
export const DEFAULT_DAYS = 30;
/** The longest range a report covers: a year, a leap year's included. */
export const MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Midnight UTC of a YYYY-MM-DD day, in milliseconds; NaN for anything else (2026-02-30 included). */
export function dayStart(day: string): number {
  if (!DAY.test(day)) return NaN;
  const time = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(time) || dayOf(time) !== day ? NaN : time;
}

/** The last `days` days up to and including `now`'s. */
export function lastDays(now: Date, days = DEFAULT_DAYS): ReportRange {
  const today = dayStart(now.toISOString().slice(0, 10));
  return { from: dayOf(today - (days - 1) * DAY_MS), to: dayOf(today) };
}

/** The range from two days as a form sent them, or null when they are not days, run backwards or span more than MAX_DAYS. */
export function readRange(from: string, to: string): ReportRange | null {
  const start = dayStart(from);
  const last = dayStart(to);
  if (Number.isNaN(start) || Number.isNaN(last) || last < start || (last - start) / DAY_MS + 1 > MAX_DAYS) return null;
  return { from, to };
}

/** The range's bounds as ISO times, to compare with the tables' text timestamps: `start` included, `end` (the next midnight) not. */
export function rangeBounds(range: ReportRange): { start: string; end: string } {
  return { start: new Date(dayStart(range.from)).toISOString(), end: new Date(dayStart(range.to) + DAY_MS).toISOString() };
}

/** Every day of the range, in order. */
export function daysOf(range: ReportRange): string[] {
  const days: string[] = [];
  for (let t = dayStart(range.from); t <= dayStart(range.to); t += DAY_MS) days.push(dayOf(t));
  return days;
}
