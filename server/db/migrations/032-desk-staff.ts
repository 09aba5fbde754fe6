import type { Kysely } from "kysely";

// The desk's staff (ADR 072): readers with roles, their second factor (a TOTP secret and
// recovery codes, stored hashed), single-use enrolment links, and desk sessions: a reader's
// session raised to the desk by a code, for 12 hours at most.
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("staff_role")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("granted_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("staff_role_pk", ["user_id", "role"])
    .execute();
  await s.createIndex("staff_role_role_idx").on("staff_role").column("role").execute();

  // The secret is kept as it is: checking a code needs it. `last_step` is the time step of the
  // last code accepted; a code is accepted only for a later step, so none can be used twice.
  await s
    .createTable("staff_second_factor")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("app_user.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enrolled_at", "text", (c) => c.notNull())
    .addColumn("last_step", "integer", (c) => c.notNull())
    .execute();

  await s
    .createTable("staff_recovery_code")
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addPrimaryKeyConstraint("staff_recovery_code_pk", ["user_id", "code_hash"])
    .execute();

  // `secret` is the one offered on the enrolment page, until a code from it completes enrolment.
  await s
    .createTable("staff_enrolment")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("secret", "text")
    .execute();
  await s.createIndex("staff_enrolment_user_idx").on("staff_enrolment").column("user_id").execute();

  // Keyed by the reader's session: signing out (or its expiry) ends the desk session with it.
  await s
    .createTable("desk_session")
    .addColumn("session_hash", "text", (c) => c.primaryKey().references("user_session.id_hash").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await s.createIndex("desk_session_user_idx").on("desk_session").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["desk_session", "staff_enrolment", "staff_recovery_code", "staff_second_factor", "staff_role"])
    await db.schema.dropTable(table).execute();
}
