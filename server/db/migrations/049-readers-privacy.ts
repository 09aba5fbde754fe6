import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// Readers' own privacy rights (issue 39, ADR 089). A reader who deletes their account leaves
// behind what the law makes the publisher keep, with no link to the account: their invoices, the
// subscriptions those invoices bill and the checkouts that bought them (the publisher's figures
// count them), and their orders. So `user_id` on invoice, subscription and subscription_checkout
// may now be null, and its foreign key sets null instead of cascading: a statutory record never
// goes with an account. `buyer_name` keeps the name an invoice or an order was made out to once
// the account that named the buyer is gone. A session records the browser that started it (its
// User-Agent, cut short), which the reader's data export lists.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.alterTable("user_session").addColumn("user_agent", "text").execute();
  await s.alterTable("invoice").addColumn("buyer_name", "text").execute();
  await s.alterTable("store_order").addColumn("buyer_name", "text").execute();

  if (isPostgres(db)) {
    for (const table of RELAXED_TABLES) {
      const constraint = `${table}_user_id_fkey`;
      await sql`alter table ${sql.table(table)} alter column user_id drop not null`.execute(db);
      await sql`alter table ${sql.table(table)} drop constraint ${sql.id(constraint)}`.execute(db);
      await sql`alter table ${sql.table(table)} add constraint ${sql.id(constraint)}
        foreign key (user_id) references app_user (id) on delete set null`.execute(db);
    }
    return;
  }
  await relaxUserColumnsOnSqlite(db);
}

const RELAXED_TABLES = ["subscription", "subscription_checkout", "invoice"] as const;

const USER_COLUMN = /"user_id" text not null references "app_user" \("id"\) on delete cascade/;
const RELAXED_USER_COLUMN = '"user_id" text references "app_user" ("id") on delete set null';

/**
 * SQLite changes a column's constraints only by making the table again (its documented
 * procedure: a new table, the rows copied, the old one dropped, the new one renamed, the indexes
 * made again). Migrations run in a transaction with foreign keys on, where dropping a table
 * deletes its rows first and cascades to the tables that refer to it, and invoice refers to
 * subscription: so the invoices wait in a plain holding table while subscription is made again,
 * then come back into an invoice table made again. Nothing refers to subscription_checkout.
 */
async function relaxUserColumnsOnSqlite(db: Kysely<unknown>): Promise<void> {
  const invoice = await definition(db, "invoice");

  await sql`create table invoice__held as select * from invoice`.execute(db);
  await sql`drop table invoice`.execute(db);

  for (const table of ["subscription", "subscription_checkout"]) {
    const { create, indexes } = await definition(db, table);
    const remade = `${table}__new`;
    await sql.raw(relaxed(create).replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${remade}"`)).execute(db);
    await sql`insert into ${sql.table(remade)} select * from ${sql.table(table)}`.execute(db);
    await sql`drop table ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(remade)} rename to ${sql.table(table)}`.execute(db);
    for (const index of indexes) await sql.raw(index).execute(db);
  }

  await sql.raw(relaxed(invoice.create)).execute(db);
  await sql`insert into invoice select * from invoice__held`.execute(db);
  await sql`drop table invoice__held`.execute(db);
  for (const index of invoice.indexes) await sql.raw(index).execute(db);
}

function relaxed(create: string): string {
  if (!USER_COLUMN.test(create)) throw new Error(`unexpected definition: ${create}`);
  return create.replace(USER_COLUMN, RELAXED_USER_COLUMN);
}

/** A table's CREATE TABLE and its own CREATE INDEX statements, as SQLite keeps them. */
async function definition(db: Kysely<unknown>, table: string): Promise<{ create: string; indexes: string[] }> {
  const { rows } = await sql<{ type: string; sql: string | null }>`
    select type, sql from sqlite_master where tbl_name = ${table} and type in ('table', 'index') and sql is not null`.execute(db);
  const create = rows.find((r) => r.type === "table")?.sql;
  if (!create?.startsWith(`CREATE TABLE "${table}"`)) throw new Error(`no table ${table}`);
  return { create, indexes: rows.filter((r) => r.type === "index").map((r) => r.sql!) };
}
