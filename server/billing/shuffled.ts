/**
 * The items in a random order. Processes working through the same list (the jobs of several
 * instances) each take it in their own order, so they seldom reach for the same item at once.
 */
export function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
