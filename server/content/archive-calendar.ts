// The magazine's publishing calendar, 1956–2025: which issues exist and what they are called.

export const FIRST_ARCHIVE_YEAR = 1956;
export const LAST_ARCHIVE_YEAR = 2025;

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" });

export interface IssueSlot {
  code: string;
  year: number;
  /** First calendar month the issue covers, 1–12. */
  month: number;
  monthLabel: string;
}

const BIMONTHLY: number[][] = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]];
// The monthly years still combined the summer and year-end issues.
const MONTHLY: number[][] = [[1], [2], [3], [4], [5], [6], [7, 8], [9], [10], [11, 12]];

// Issues that were never published (a strike, a paper shortage, a redesign gap).
const NEVER_PUBLISHED = new Set(["5809", "7403", "9106", "0310", "BR1707"]);

export function issuesPerYear(year: number): number[][] {
  return year >= 1990 && year <= 2019 ? MONTHLY : BIMONTHLY;
}

/** Codes are BR + yymm from 2010 on, and four-digit yymm numbers for older issues. */
export function issueCode(year: number, month: number): string {
  const yymm = `${String(year % 100).padStart(2, "0")}${String(month).padStart(2, "0")}`;
  return year >= 2010 ? `BR${yymm}` : yymm;
}

export function monthLabel(months: number[]): string {
  return months.map((m) => MONTH_NAME.format(Date.UTC(2000, m - 1, 1))).join("–");
}

/**
 * What an issue of `year` starting in `month` is called: the months its slot in that year's
 * calendar covers ("July–August"), or the month alone when no slot starts there.
 */
export function issueMonthLabel(year: number, month: number): string {
  return monthLabel(issuesPerYear(year).find((months) => months[0] === month) ?? [month]);
}

/** The slot after an issue's in the calendar: the year's next, or the next year's first. */
export function nextIssueSlot(year: number, month: number): { year: number; month: number } {
  const next = issuesPerYear(year).find((months) => months[0]! > month);
  return next ? { year, month: next[0]! } : { year: year + 1, month: issuesPerYear(year + 1)[0]![0]! };
}

export function archiveCalendar(): IssueSlot[] {
  const slots: IssueSlot[] = [];
  for (let year = FIRST_ARCHIVE_YEAR; year <= LAST_ARCHIVE_YEAR; year++) {
    for (const months of issuesPerYear(year)) {
      const code = issueCode(year, months[0]!);
      if (NEVER_PUBLISHED.has(code)) continue;
      slots.push({ code, year, month: months[0]!, monthLabel: monthLabel(months) });
    }
  }
  return slots;
}

