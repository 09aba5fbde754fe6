import type { Kysely } from "kysely";

// Sales tax on subscriptions (ADR 070). The checkout and the subscription record the billing
// address the tax follows (country, and the state or province in the US and Canada); null on a
// subscription bought before, which is not taxed until its subscriber adds one. A checkout keeps
// the tax it was quoted and charged; an invoice, the rate and the address it was charged for.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  for (const table of ["subscription_checkout", "subscription", "invoice"]) {
    await s.alterTable(table).addColumn("billing_country", "text").execute();
    await s.alterTable(table).addColumn("billing_region", "text").execute();
  }
  await s
    .alterTable("subscription_checkout")
    .addColumn("tax_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const table of ["subscription_checkout", "invoice"])
    await s
      .alterTable(table)
      .addColumn("tax_rate_bp", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  for (const table of ["subscription_checkout", "invoice"]) await s.alterTable(table).dropColumn("tax_rate_bp").execute();
  await s.alterTable("subscription_checkout").dropColumn("tax_cents").execute();
  for (const table of ["subscription_checkout", "subscription", "invoice"]) {
    await s.alterTable(table).dropColumn("billing_region").execute();
    await s.alterTable(table).dropColumn("billing_country").execute();
  }
}
