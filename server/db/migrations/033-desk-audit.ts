import { sql, type Kysely } from "kysely";
import { isPostgres } from "~/server/db/dialect";

// The desk's audit log (ADR 073): one row per desk action, never changed or removed. It names
// its actor and subject by value, without foreign keys, so it outlives what it refers to; and
// both databases refuse an UPDATE or DELETE of it (PostgreSQL a TRUNCATE too).
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable("desk_audit")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("before", "text")
    .addColumn("after", "text")
    .execute();
  await s.createIndex("desk_audit_at_idx").on("desk_audit").columns(["at", "id"]).execute();
  await s.createIndex("desk_audit_actor_idx").on("desk_audit").columns(["actor", "at"]).execute();
  await s.createIndex("desk_audit_action_idx").on("desk_audit").columns(["action", "at"]).execute();

  if (isPostgres(db)) {
    await sql`create function desk_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'desk_audit is append-only: % refused', tg_op;
      end $$`.execute(db);
    await sql`create trigger desk_audit_no_change before update or delete on desk_audit
      for each row execute function desk_audit_append_only()`.execute(db);
    await sql`create trigger desk_audit_no_truncate before truncate on desk_audit
      for each statement execute function desk_audit_append_only()`.execute(db);
  } else {
    for (const operation of ["update", "delete"])
      await sql`create trigger ${sql.raw(`desk_audit_no_${operation}`)} before ${sql.raw(operation)} on desk_audit
        begin select raise(abort, ${sql.lit(`desk_audit is append-only: ${operation.toUpperCase()} refused`)}); end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("desk_audit").execute();
  if (isPostgres(db)) await sql`drop function desk_audit_append_only()`.execute(db);
}
