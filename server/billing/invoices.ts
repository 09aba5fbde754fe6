import crypto from "node:crypto";
import type { Config } from "~/server/config";
import type { Database } from "~/server/db/connection";
import type { InvoiceTable } from "~/server/db/schema";
import { renderInvoicePdf } from "~/server/documents/pdf";
import { findPlan } from "~/server/subscriptions/plans";
import { formatUsd } from "~/shared/money";
import { describeBillingAddress } from "~/shared/billing-address";
import { billingAddressOf, taxLabel } from "./tax";

export type InvoiceInput = Omit<InvoiceTable, "id" | "number" | "created_at" | "receipt_sent_at" | "receipt_claimed_until" | "buyer_name">;

/**
 * Writes the invoices for payments applied in one transaction, numbered in their order from the
 * one counter: a single step of the counter takes a block of consecutive numbers. Call it inside
 * the transaction that applies the payments: the counter's row stays locked until that commits
 * (PostgreSQL's row lock, SQLite's write lock), so concurrent transactions take consecutive
 * blocks, and one rolled back gives its numbers back: the sequence has no gaps. Answers their ids
 * and numbers.
 */
export async function recordInvoices(tx: Database, inputs: InvoiceInput[], now: Date): Promise<{ id: string; number: number }[]> {
  if (inputs.length === 0) return [];
  const { last_number: last } = await tx
    .updateTable("invoice_sequence")
    .set((eb) => ({ last_number: eb("last_number", "+", inputs.length) }))
    .where("name", "=", "invoice")
    .returning("last_number")
    .executeTakeFirstOrThrow();
  const written = inputs.map((_, i) => ({ id: crypto.randomUUID(), number: last - inputs.length + 1 + i }));
  await tx
    .insertInto("invoice")
    .values(
      inputs.map((input, i) => ({
        ...input,
        ...written[i]!,
        created_at: now.toISOString(),
        receipt_sent_at: null,
        receipt_claimed_until: null,
      })),
    )
    .execute();
  return written;
}

/** The invoice for one payment (recordInvoices, for one). */
export async function recordInvoice(tx: Database, input: InvoiceInput, now: Date): Promise<number> {
  const [written] = await recordInvoices(tx, [input], now);
  return written!.number;
}

/** How an invoice number is printed. */
export const invoiceNumber = (number: number) => `MR-${String(number).padStart(6, "0")}`;

export interface Publisher {
  name: string;
  addressLines: string[];
  taxId: string | null;
}

export const publisherFrom = (config: Config): Publisher => ({
  name: config.PUBLISHER_NAME,
  addressLines: config.PUBLISHER_ADDRESS.split(";").map((line) => line.trim()),
  taxId: config.PUBLISHER_TAX_ID ?? null,
});

// One formatter for every invoice: toLocaleDateString builds a new one on each call, which cost
// more than the rest of a receipt's text on a renewal day of 100,000 receipts.
const dayFormat = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" });
const day = (iso: string) => dayFormat.format(new Date(iso));

/**
 * An invoice as the buyer reads it: its printed number and its PDF. One whose reader deleted
 * their account is made out to the name it kept, without an address to mail (ADR 089).
 */
export async function invoiceDocument(db: Database, id: string, publisher: Publisher, siteUrl: string) {
  const row = await db
    .selectFrom("invoice")
    .leftJoin("app_user", "app_user.id", "invoice.user_id")
    .selectAll("invoice")
    .select(["app_user.email", "app_user.first_name", "app_user.last_name"])
    .where("invoice.id", "=", id)
    .executeTakeFirstOrThrow();
  const plan = findPlan(row.plan_id);
  const number = invoiceNumber(row.number);
  const address = billingAddressOf(row);
  const pdf = await renderInvoicePdf({
    number,
    issued: day(row.created_at),
    publisher,
    billTo: {
      name: row.first_name === null ? (row.buyer_name ?? "") : `${row.first_name} ${row.last_name}`,
      email: row.email ?? "",
      company: row.company,
      taxId: row.tax_id,
      address: address && describeBillingAddress(address),
    },
    description: `${plan?.name ?? row.plan_id} subscription, ${plan?.period === "year" ? "yearly" : "monthly"}${row.kind === "renewal" ? " (renewal)" : row.kind === "upgrade" ? " (upgrade, prorated for the rest of the period)" : ""}`,
    period: `${day(row.period_start)} to ${day(row.period_end)}`,
    amount: formatUsd(row.amount_cents),
    taxLabel: taxLabel(address, row.tax_rate_bp),
    tax: formatUsd(row.tax_cents),
    total: formatUsd(row.amount_cents + row.tax_cents),
    paidWith: row.card_last4 ? `Paid with ${row.card_brand ?? "card"} ending in ${row.card_last4}` : "Paid",
    siteUrl,
    now: new Date(row.created_at),
  });
  return { invoice: row, number, planName: plan?.name ?? row.plan_id, taxLabel: taxLabel(address, row.tax_rate_bp), pdf };
}
