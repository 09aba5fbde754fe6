// What a refund of chosen lines gives back (ADR 086): each line's share of what was paid for the
// goods (its price less its share of the discount, plus its share of the tax); shipping goes back
// with the refund that leaves nothing unrefunded, which takes exactly what is left, so the refunds
// of an order add up to what was paid, never more.

export interface OrderMoney {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  refundedCents: number;
}

export interface RefundableLine {
  position: number;
  quantity: number;
  refundedQuantity: number;
  lineTotalCents: number;
}

/** Answers the amount, or null when a choice is not refundable (unknown line, or more than is left of it). */
export function refundAmount(order: OrderMoney, lines: RefundableLine[], chosen: Map<number, number>): number | null {
  let goods = 0;
  let everything = true;
  for (const line of lines) {
    const left = line.quantity - line.refundedQuantity;
    const taking = chosen.get(line.position) ?? 0;
    if (taking > left) return null;
    if (taking < left) everything = false;
    goods += (line.lineTotalCents * taking) / line.quantity;
  }
  if ([...chosen.keys()].some((position) => !lines.some((l) => l.position === position))) return null;
  const remaining = order.totalCents - order.refundedCents;
  if (everything) return remaining;
  if (order.subtotalCents <= 0) return 0;
  return Math.min(remaining, Math.round((goods * (order.totalCents - order.shippingCents)) / order.subtotalCents));
}
