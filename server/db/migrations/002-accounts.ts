import type { Kysely } from "kysely";

// Accounts, sessions and the counters behind lockout and rate limits. Ids are random text
// (no dialect-specific auto-increment); times are ISO-8601 text like the content tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("app_user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("display_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("opt_in", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("industry", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("job_title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("company_size", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_visit_at", "text")
    .execute();

  await s
    .createTable("user_session")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("user_session_user_idx").on("user_session").column("user_id").execute();

  // Keyed by the address typed, whether or not an account has it, so that a stranger's
  // address and a member's answer alike.
  await s
    .createTable("login_failure")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("lockouts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_lockout_at", "text")
    .addColumn("locked_until", "text")
    .addColumn("hard_locked", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await s
    .createTable("rate_limit")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .execute();

  await s
    .createTable("password_reset")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();

  // The publisher's print-subscription records (spec "Subscriber record"), matched by e-mail at
  // registration and linked to an account by account number.
  await s
    .createTable("print_subscriber")
    .addColumn("account_number", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("subscription_code", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("access_start", "text", (c) => c.notNull())
    .addColumn("access_end", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("print_subscriber_email_idx").on("print_subscriber").column("email").execute();

  // Addresses (or "@domain") the publisher has blocked from holding an account.
  await s
    .createTable("restricted_address")
    .addColumn("pattern", "text", (c) => c.primaryKey())
    .addColumn("reason", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "restricted_address",
    "print_subscriber",
    "password_reset",
    "rate_limit",
    "login_failure",
    "user_session",
    "app_user",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
