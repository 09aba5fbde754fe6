import type { Kysely } from "kysely";

// The metered paywall, subscriptions and their checkout, and the subscriber features (gifts,
// annotations), plus the one-time messages a reader can dismiss.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  // One row per distinct article a reader opened in a calendar month, per meter. The meter key
  // is "v:{visitor id}" for guests (from the signed visitor cookie) or "u:{user id}".
  await s
    .createTable("meter_read")
    .addColumn("meter_key", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("meter", "text", (c) => c.notNull())
    .addColumn("article_id", "integer", (c) => c.notNull())
    .addColumn("read_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("meter_read_pk", ["meter_key", "period", "meter", "article_id"])
    .execute();

  // A reader's entitlements. `reference` (a checkout id or a print account number) is unique, so
  // a replayed completion or a second link never grants twice.
  await s
    .createTable("subscription")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("role_code", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("access_start", "text", (c) => c.notNull())
    .addColumn("access_end", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("subscription_user_idx").on("subscription").column("user_id").execute();

  // A subscription purchase in progress: created when the reader chooses a plan, activated once
  // the payment provider confirms it.
  await s
    .createTable("subscription_checkout")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("ab_tag", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_session_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("activated_at", "text")
    .execute();

  // The built-in sandbox payment provider's hosted checkout sessions.
  await s
    .createTable("sandbox_payment")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("customer_email", "text", (c) => c.notNull())
    .addColumn("success_url", "text", (c) => c.notNull())
    .addColumn("cancel_url", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("card_last4", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();

  // Gift links: the monthly count is kept in its own row so a conditional update can take one
  // atomically (two requests at once never exceed the allowance).
  await s
    .createTable("gift_allowance")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("gift_allowance_pk", ["user_id", "period"])
    .execute();
  await s
    .createTable("gift_link")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("article_id", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await s.createIndex("gift_link_user_idx").on("gift_link").column("user_id").execute();

  await s
    .createTable("annotation")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("article_id", "integer", (c) => c.notNull())
    .addColumn("paragraph", "integer", (c) => c.notNull())
    .addColumn("quote", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("annotation_user_article_idx").on("annotation").columns(["user_id", "article_id"]).execute();

  // Help boxes, the onboarding overlay and the persistent banner, once dismissed, per account
  // ("u:{id}") or per visitor ("v:{id}").
  await s
    .createTable("dismissal")
    .addColumn("owner_key", "text", (c) => c.notNull())
    .addColumn("item", "text", (c) => c.notNull())
    .addColumn("dismissed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("dismissal_pk", ["owner_key", "item"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "dismissal",
    "annotation",
    "gift_link",
    "gift_allowance",
    "sandbox_payment",
    "subscription_checkout",
    "subscription",
    "meter_read",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
