// What a refund of chosen lines gives back (ADR 086): each line's share of what was paid for the
// goods (its price less its share of the discount, plus its share of the tax); shipping goes back
// with the refund that leaves nothing unrefunded, which takes exactly what is left, so the refunds
// of an order add up to what was paid, never more. A pre-order charged on its date (ADR 092) and
// not charged yet was not paid: refunding it gives nothing back, and what is left to refund leaves
// it out.

export interface OrderMoney {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  refundedCents: number;
  /** What pre-orders not charged yet would take: not paid, so never refunded. */
  unchargedCents: number;
}

export interface RefundableLine {
  position: number;
  quantity: number;
  refundedQuantity: number;
  lineTotalCents: number;
  /** A pre-order charged on its date, not charged yet. */
  unpaid: boolean;
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
    if (!line.unpaid) goods += (line.lineTotalCents * taking) / line.quantity;
  }
  if ([...chosen.keys()].some((position) => !lines.some((l) => l.position === position))) return null;
  const remaining = order.totalCents - order.refundedCents - order.unchargedCents;
  if (everything) return remaining;
  if (order.subtotalCents <= 0) return 0;
  return Math.min(remaining, Math.round((goods * (order.totalCents - order.shippingCents)) / order.subtotalCents));
}
