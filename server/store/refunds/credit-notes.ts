import type { Database } from "~/server/db/connection";
import type { Publisher } from "~/server/billing/invoices";
import { renderInvoicePdf } from "~/server/documents/pdf";
import { addressLines } from "~/shared/address";
import { formatUsd } from "~/shared/money";
import { findOrder } from "~/server/store/order-records";
import { orderPath } from "~/server/store/order-mail";
import { creditNoteNumber } from "./refunds";

const dayFormat = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
const day = (iso: string) => dayFormat.format(new Date(iso));

/**
 * A succeeded refund's credit note, as the buyer reads it: drawn by the invoices' own renderer
 * (renderInvoicePdf, kind "Credit note"), numbered CN-… from its own sequence. The tax shown is
 * the refund's share of the order's tax.
 */
export async function creditNoteDocument(db: Database, refundId: string, publisher: Publisher, siteUrl: string) {
  const refund = await db.selectFrom("store_refund").selectAll().where("id", "=", refundId).executeTakeFirstOrThrow();
  if (refund.credit_note_number === null || !refund.succeeded_at) throw new Error(`refund ${refundId} has no credit note yet`);
  const order = (await findOrder(db, refund.order_id))!;
  const account = order.userId
    ? await db.selectFrom("app_user").select(["first_name", "last_name"]).where("id", "=", order.userId).executeTakeFirst()
    : undefined;
  const refunded = await db.selectFrom("store_refund_line").selectAll().where("refund_id", "=", refundId).orderBy("position").execute();
  const lines = refunded.map((r) => {
    const line = order.lines.find((l) => l.position === r.position)!;
    return `${r.quantity} × ${line.title} (${line.format})`;
  });
  const number = creditNoteNumber(refund.credit_note_number);
  const taxCents = order.totalCents > 0 ? Math.round((order.taxCents * refund.amount_cents) / order.totalCents) : 0;
  const address = order.address ? addressLines(order.address) : null;
  const pdf = await renderInvoicePdf({
    kind: "Credit note",
    number,
    issued: day(refund.succeeded_at),
    publisher,
    billTo: {
      name: address?.[0] ?? (account ? `${account.first_name} ${account.last_name}` : (order.buyerName ?? order.email)),
      email: order.email,
      company: null,
      taxId: null,
      address: address ? address.slice(1).join(", ") : null,
    },
    description: refund.kind === "cancel" ? `Order ${order.number} cancelled and refunded` : `Refund for order ${order.number}`,
    details: lines,
    period: day(order.createdAt),
    periodLabel: "Order placed",
    amount: formatUsd(refund.amount_cents - taxCents),
    taxLabel: "Tax",
    tax: formatUsd(taxCents),
    total: formatUsd(refund.amount_cents),
    paidWith: refund.amount_cents > 0 ? "Refunded to the card the order was paid with" : "Nothing was charged, so nothing is refunded",
    siteUrl,
    accountPath: orderPath(order),
    now: new Date(refund.succeeded_at),
  });
  return { refund, order, number, lines, pdf };
}
