/** Spec: the year list selects the first year; the month list selects the given index or the first. */
export function pickYear(years: number[], requested: string | null): number | undefined {
  if (requested !== null && /^\d{4}$/.test(requested) && years.includes(Number(requested))) return Number(requested);
  return requested === null ? years[0] : undefined;
}

export function pickMonthIndex(count: number, requested: string | null): number {
  if (requested !== null && /^\d{1,2}$/.test(requested) && Number(requested) < count) return Number(requested);
  return 0;
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The calendar months (1–12) an issue's label covers: "July–August" is [7, 8]. */
export function monthsOfIssue(label: string): number[] {
  const [from, to] = label.split(/[–-]/).map((part) => MONTH_NAMES.indexOf(part.trim()) + 1);
  if (!from) return [];
  if (!to || to < from) return [from];
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * The issue of a year that a reader without JS meant. The month list they chose from belongs to
 * the year that was on screen (`shown`), which may not be the year they then chose: the index is
 * read in the list they saw, and the issue of the chosen year covering the same months (or else
 * the nearest) is the answer.
 */
export function pickIssueIndex(
  issues: { issueMonth: string }[],
  shown: { issueMonth: string }[] | undefined,
  requested: string | null,
): number {
  if (!shown) return pickMonthIndex(issues.length, requested);
  const chosen = monthsOfIssue(shown[pickMonthIndex(shown.length, requested)]?.issueMonth ?? "");
  if (chosen.length === 0) return 0;
  let best = 0;
  let bestDistance = Infinity;
  issues.forEach((issue, i) => {
    const covered = monthsOfIssue(issue.issueMonth);
    const distance = covered.some((m) => chosen.includes(m)) ? 0 : Math.min(...covered.map((m) => Math.abs(m - chosen[0]!)));
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  });
  return best;
}
