/** Spec: the year list selects the first year; the month list selects the given index or the first. */
export function pickYear(years: number[], requested: string | null): number | undefined {
  if (requested !== null && /^\d{4}$/.test(requested) && years.includes(Number(requested))) return Number(requested);
  return requested === null ? years[0] : undefined;
}

export function pickMonthIndex(count: number, requested: string | null): number {
  if (requested !== null && /^\d{1,2}$/.test(requested) && Number(requested) < count) return Number(requested);
  return 0;
}
