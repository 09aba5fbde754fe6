/** "Better together": what the checked items cost together, in whole cents (so never a float's rounding). */
export function togetherTotalCents(items: readonly { availabilityId: number; priceCents: number }[], checked: ReadonlySet<number>): number {
  return items.reduce((sum, item) => (checked.has(item.availabilityId) ? sum + item.priceCents : sum), 0);
}
