import crypto from "node:crypto";
import { hashToken, newToken } from "~/server/accounts/tokens";
import type { Database } from "~/server/db/connection";
import { recordAudit, type AuditActor } from "./audit";
import { ROLES, type Role } from "~/shared/staff-roles";

// Staff API keys for the Admin API (ADR 074). A key is `mrk_<prefix>_<secret>`: the prefix is
// public (the desk shows it, and it finds the row); only the SHA-256 of the whole key is kept,
// compared in constant time. Making and revoking a key each write their audit row in the same
// transaction.

const KEY_PATTERN = /^(mrk_[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** A key as the Admin API knows its caller. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  roles: Role[];
}

export interface ApiKeyListing extends ApiKey {
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

const rolesOf = (text: string): Role[] => {
  const held = new Set(text.split(","));
  return ROLES.filter((role) => held.has(role));
};

/** The key as the audit log names it when it acts: its name and public prefix. */
export function keyActor(key: ApiKey): AuditActor & { id: string } {
  return { id: key.id, label: `API key ${key.name} (${key.prefix})` };
}

/** Makes a key with these roles; answers it in full, the only time it exists outside the caller's hands. */
export async function createApiKey(
  db: Database,
  actor: AuditActor,
  name: string,
  roles: Role[],
  now: Date,
): Promise<{ key: string; apiKey: ApiKey }> {
  const wanted = ROLES.filter((role) => roles.includes(role));
  if (wanted.length === 0 || name.trim() === "") throw new Error("An API key needs a name and at least one role.");
  const prefix = `mrk_${crypto.randomBytes(6).toString("hex")}`;
  const key = `${prefix}_${newToken()}`;
  const apiKey: ApiKey = { id: crypto.randomUUID(), name: name.trim(), prefix, roles: wanted };
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("desk_api_key")
      .values({
        id: apiKey.id,
        name: apiKey.name,
        prefix,
        key_hash: hashToken(key),
        roles: wanted.join(","),
        created_at: now.toISOString(),
        created_by: actor.label,
        last_used_at: null,
        revoked_at: null,
        revoked_by: null,
      })
      .execute();
    await recordAudit(
      tx,
      { actor, action: "api-key.create", subject: `api-key:${apiKey.name} (${prefix})`, after: { roles: wanted } },
      now,
    );
  });
  return { key, apiKey };
}

/**
 * The live key an `Authorization` header's value names, or null: missing, malformed, unknown or
 * revoked are alike to the caller. A key found is marked used now.
 */
export async function authenticateApiKey(db: Database, key: string, now: Date): Promise<ApiKey | null> {
  const parts = KEY_PATTERN.exec(key);
  if (!parts) return null;
  const row = await db
    .selectFrom("desk_api_key")
    .select(["id", "name", "prefix", "key_hash", "roles"])
    .where("prefix", "=", parts[1]!)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const stored = Buffer.from(row.key_hash, "hex");
  const given = Buffer.from(hashToken(key), "hex");
  if (stored.length !== given.length || !crypto.timingSafeEqual(stored, given)) return null;
  await db.updateTable("desk_api_key").set({ last_used_at: now.toISOString() }).where("id", "=", row.id).execute();
  return { id: row.id, name: row.name, prefix: row.prefix, roles: rolesOf(row.roles) };
}

/** Every key, live ones first, newest first. */
export async function listApiKeys(db: Database): Promise<ApiKeyListing[]> {
  const rows = await db.selectFrom("desk_api_key").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      roles: rolesOf(row.roles),
      createdAt: row.created_at,
      createdBy: row.created_by,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
      revokedBy: row.revoked_by,
    }))
    .sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
}

/** Revokes a live key at once; false when there is no live key with this id. */
export async function revokeApiKey(db: Database, actor: AuditActor, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom("desk_api_key").select(["name", "prefix", "roles"]).where("id", "=", id).executeTakeFirst();
    const revoked = await tx
      .updateTable("desk_api_key")
      .set({ revoked_at: now.toISOString(), revoked_by: actor.label })
      .where("id", "=", id)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (!row || Number(revoked.numUpdatedRows) === 0) return false;
    await recordAudit(
      tx,
      {
        actor,
        action: "api-key.revoke",
        subject: `api-key:${row.name} (${row.prefix})`,
        before: { roles: rolesOf(row.roles), revoked: false },
        after: { revoked: true },
      },
      now,
    );
    return true;
  });
}

/**
 * Logs one Admin API call in the audit log, under the key: what was asked and what it answered.
 * (A call that changes something also writes its own row, with before and after, in the change's
 * transaction.)
 */
export async function recordApiCall(
  db: Database,
  key: ApiKey,
  call: { method: string; path: string; query: string; status: number },
  now: Date,
): Promise<void> {
  await recordAudit(
    db,
    { actor: keyActor(key), action: "api.call", subject: `${call.method} ${call.path}`, after: { query: call.query, status: call.status } },
    now,
  );
}
