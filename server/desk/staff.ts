import { hashToken } from "~/server/accounts/tokens";
import { findUserById, normalizeEmail, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { recordAudit, type AuditActor } from "./audit";
import { isRole, ROLES, type Role } from "~/shared/staff-roles";
import { createEnrolment } from "./second-factor";

// Staff are readers with roles (ADR 072). Adding, changing and removing them happen here, each
// in one transaction with its audit row; a change of roles or a removal ends the member's desk
// sessions in the same transaction.

export const DESK_SESSION_HOURS = 12;

/** A signed-in reader who holds at least one role, as the request context carries them. */
export interface StaffMember {
  user: User;
  roles: Role[];
  /** Whether they have set up a second factor. */
  enrolled: boolean;
  /** When the desk session of this browser's sign-in ends; null when it has none (or it has ended). */
  deskSessionEnds: string | null;
}

const sortRoles = (roles: Iterable<Role>): Role[] => ROLES.filter((role) => new Set(roles).has(role));

export async function rolesOf(db: Database, userId: string): Promise<Role[]> {
  const rows = await db.selectFrom("staff_role").select("role").where("user_id", "=", userId).execute();
  return sortRoles(rows.map((row) => row.role).filter(isRole));
}

/** The staff member behind a signed-in reader's session, or null for a reader without a role. */
export async function staffMemberFor(db: Database, user: User, sessionToken: string, now: Date): Promise<StaffMember | null> {
  const roles = await rolesOf(db, user.id);
  if (roles.length === 0) return null;
  const [factor, session] = await Promise.all([
    db.selectFrom("staff_second_factor").select("user_id").where("user_id", "=", user.id).executeTakeFirst(),
    db
      .selectFrom("desk_session")
      .select("expires_at")
      .where("session_hash", "=", hashToken(sessionToken))
      .where("user_id", "=", user.id)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst(),
  ]);
  return { user, roles, enrolled: Boolean(factor), deskSessionEnds: session?.expires_at ?? null };
}

/**
 * Raises the reader's session to the desk for 12 hours, after a right code (a new code starts
 * the 12 hours again); answers when it ends.
 */
export async function enterDesk(
  db: Database,
  sessionToken: string,
  actor: AuditActor & { id: string },
  by: "totp" | "recovery" | "enrolment",
  now: Date,
): Promise<string> {
  const expiresAt = new Date(now.getTime() + DESK_SESSION_HOURS * 3_600_000).toISOString();
  const row = { session_hash: hashToken(sessionToken), user_id: actor.id, started_at: now.toISOString(), expires_at: expiresAt };
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("desk_session")
      .values(row)
      .onConflict((oc) =>
        oc.column("session_hash").doUpdateSet({ user_id: row.user_id, started_at: row.started_at, expires_at: expiresAt }),
      )
      .execute();
    await recordAudit(tx, { actor, action: "desk.enter", subject: `staff:${actor.label}`, after: { by, until: expiresAt } }, now);
  });
  return expiresAt;
}

/** Leaves the desk; the reader stays signed in to the site. */
export async function endDeskSession(db: Database, sessionToken: string, actor: AuditActor, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const ended = await tx.deleteFrom("desk_session").where("session_hash", "=", hashToken(sessionToken)).executeTakeFirst();
    if (Number(ended.numDeletedRows) > 0) await recordAudit(tx, { actor, action: "desk.leave", subject: `staff:${actor.label}` }, now);
  });
}

export interface StaffListing {
  userId: string;
  email: string;
  name: string;
  roles: Role[];
  enrolled: boolean;
}

export async function listStaff(db: Database): Promise<StaffListing[]> {
  const rows = await db
    .selectFrom("staff_role")
    .innerJoin("app_user", "app_user.id", "staff_role.user_id")
    .leftJoin("staff_second_factor", "staff_second_factor.user_id", "staff_role.user_id")
    .select([
      "app_user.id",
      "app_user.email",
      "app_user.first_name",
      "app_user.last_name",
      "staff_role.role",
      "staff_second_factor.enrolled_at",
    ])
    .orderBy("app_user.email")
    .execute();
  const byUser = new Map<string, StaffListing>();
  for (const row of rows) {
    const member = byUser.get(row.id) ?? {
      userId: row.id,
      email: row.email,
      name: `${row.first_name} ${row.last_name}`,
      roles: [],
      enrolled: row.enrolled_at !== null,
    };
    if (isRole(row.role)) member.roles = sortRoles([...member.roles, row.role]);
    byUser.set(row.id, member);
  }
  return [...byUser.values()];
}

export async function staffListing(db: Database, userId: string): Promise<StaffListing | null> {
  return (await listStaff(db)).find((member) => member.userId === userId) ?? null;
}

export type AddStaffResult =
  { ok: true; user: User; roles: Role[]; token: string } | { ok: false; reason: "no-account" | "not-active" | "no-roles" };

/**
 * Gives a reader (found by e-mail) these roles, beside any they hold, and makes them a
 * single-use enrolment link. The account must exist: staff register as readers do.
 */
export async function addStaff(db: Database, actor: AuditActor, email: string, roles: Role[], now: Date): Promise<AddStaffResult> {
  if (roles.length === 0) return { ok: false, reason: "no-roles" };
  const address = normalizeEmail(email);
  const found = await db.selectFrom("app_user").select("id").where("email", "=", address).executeTakeFirst();
  const user = found && (await findUserById(db, found.id));
  if (!user) return { ok: false, reason: "no-account" };
  if (user.status !== "active") return { ok: false, reason: "not-active" };
  return db.transaction().execute(async (tx) => {
    const before = await rolesOf(tx, user.id);
    const added = roles.filter((role) => !before.includes(role));
    if (added.length > 0)
      await tx
        .insertInto("staff_role")
        .values(added.map((role) => ({ user_id: user.id, role, granted_at: now.toISOString() })))
        .execute();
    const after = sortRoles([...before, ...roles]);
    // New roles take effect at the next code, as a change of roles does.
    if (added.length > 0 && before.length > 0) await tx.deleteFrom("desk_session").where("user_id", "=", user.id).execute();
    const token = await createEnrolment(tx, user.id, now);
    await recordAudit(
      tx,
      { actor, action: "staff.add", subject: `staff:${user.email}`, before: { roles: before }, after: { roles: after } },
      now,
    );
    return { ok: true as const, user, roles: after, token };
  });
}

/** A new enrolment link for a staff member (a lost phone); their second factor works until it is used. */
export async function newEnrolmentLink(
  db: Database,
  actor: AuditActor,
  userId: string,
  now: Date,
): Promise<{ token: string; email: string } | null> {
  return db.transaction().execute(async (tx) => {
    const member = await staffListing(tx, userId);
    if (!member) return null;
    const token = await createEnrolment(tx, userId, now);
    await recordAudit(tx, { actor, action: "staff.enrolment-link", subject: `staff:${member.email}`, after: { expiresInHours: 24 } }, now);
    return { token, email: member.email };
  });
}

export type RoleChangeResult = { ok: true; roles: Role[] } | { ok: false; reason: "not-staff" | "no-roles" | "last-admin" | "unchanged" };

/**
 * Locks the admins' rows (PostgreSQL; SQLite's write transactions are serial already), so that
 * two admins removing each other at once cannot leave the desk with none.
 */
async function otherAdmins(tx: Database, userId: string): Promise<number> {
  let query = tx.selectFrom("staff_role").select("user_id").where("role", "=", "admin");
  if (isPostgres(tx)) query = query.forUpdate();
  const admins = await query.execute();
  return admins.filter((row) => row.user_id !== userId).length;
}

/** Sets a staff member's roles (at least one); their desk sessions end at once. */
export async function changeRoles(db: Database, actor: AuditActor, userId: string, roles: Role[], now: Date): Promise<RoleChangeResult> {
  if (roles.length === 0) return { ok: false, reason: "no-roles" };
  const wanted = sortRoles(roles);
  return db.transaction().execute(async (tx): Promise<RoleChangeResult> => {
    const member = await staffListing(tx, userId);
    if (!member) return { ok: false, reason: "not-staff" };
    if (member.roles.join() === wanted.join()) return { ok: false, reason: "unchanged" };
    if (member.roles.includes("admin") && !wanted.includes("admin") && (await otherAdmins(tx, userId)) === 0)
      return { ok: false, reason: "last-admin" };
    await tx.deleteFrom("staff_role").where("user_id", "=", userId).execute();
    await tx
      .insertInto("staff_role")
      .values(wanted.map((role) => ({ user_id: userId, role, granted_at: now.toISOString() })))
      .execute();
    await tx.deleteFrom("desk_session").where("user_id", "=", userId).execute();
    await recordAudit(
      tx,
      { actor, action: "staff.change-roles", subject: `staff:${member.email}`, before: { roles: member.roles }, after: { roles: wanted } },
      now,
    );
    return { ok: true, roles: wanted };
  });
}

export type RemoveResult = { ok: true; email: string } | { ok: false; reason: "not-staff" | "last-admin" };

/** Takes every role from a staff member, with their second factor, links and desk sessions; they stay a reader. */
export async function removeStaff(db: Database, actor: AuditActor, userId: string, now: Date): Promise<RemoveResult> {
  return db.transaction().execute(async (tx): Promise<RemoveResult> => {
    const member = await staffListing(tx, userId);
    if (!member) return { ok: false, reason: "not-staff" };
    if (member.roles.includes("admin") && (await otherAdmins(tx, userId)) === 0) return { ok: false, reason: "last-admin" };
    for (const table of ["desk_session", "staff_enrolment", "staff_recovery_code", "staff_second_factor", "staff_role"] as const)
      await tx.deleteFrom(table).where("user_id", "=", userId).execute();
    await recordAudit(
      tx,
      {
        actor,
        action: "staff.remove",
        subject: `staff:${member.email}`,
        before: { roles: member.roles, enrolled: member.enrolled },
        after: null,
      },
      now,
    );
    return { ok: true, email: member.email };
  });
}
