import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import { createSession, endSession } from "~/server/accounts/sessions";
import type { User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { auditPage, COMMAND_LINE, recordAudit, type AuditActor } from "~/server/desk/audit";
import { checkSecondFactor, completeEnrolment, openEnrolment, renewRecoveryCodes, unusedRecoveryCodes } from "~/server/desk/second-factor";
import { addStaff, changeRoles, enterDesk, listStaff, removeStaff, staffMemberFor } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// Staff, their second factor, desk sessions and the audit log (ADR 072, 073) on the database
// the run uses. Every clock is given: nothing waits.

const RULES = { maxFailures: 5, lockoutSeconds: 900 };
const PASSWORD = "Correct7horse!";
const START = new Date("2026-05-14T09:00:10Z");
const later = (seconds: number, from = START) => new Date(from.getTime() + seconds * 1000);
let db: Database;
let close: () => Promise<void>;
let counter = 0;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function reader(name: string): Promise<User> {
  counter += 1;
  const result = await register(
    db,
    { firstName: name, lastName: "Staff", email: `${name.toLowerCase()}.${counter}@example.org`, password: PASSWORD, optIn: false },
    START,
  );
  if (!result.ok) throw new Error(result.reason);
  return result.user;
}

const actorOf = (user: User): AuditActor & { id: string } => ({ id: user.id, label: user.email });

/** A reader made staff from the command line and enrolled with a code at START; answers their secret and recovery codes. */
async function enrolledStaff(name: string, roles: Parameters<typeof addStaff>[3]) {
  const user = await reader(name);
  const added = await addStaff(db, COMMAND_LINE, user.email, roles, START);
  if (!added.ok) throw new Error(added.reason);
  const { secret } = (await openEnrolment(db, added.token, START))!;
  const done = await completeEnrolment(db, added.token, actorOf(user), totpCode(secret, START), RULES, START);
  if (!done.ok) throw new Error(JSON.stringify(done));
  return { user, secret, recoveryCodes: done.value.recoveryCodes };
}

async function auditOf(subjectEmail: string) {
  const { rows } = await auditPage(db, {}, 1, 500);
  return rows.filter((row) => row.subject === `staff:${subjectEmail}`).reverse();
}

describe("staff accounts", () => {
  it("makes a reader staff only when their account exists and is open, and adds roles to those they hold", async () => {
    expect(await addStaff(db, COMMAND_LINE, "nobody.here@example.org", ["admin"], START)).toEqual({ ok: false, reason: "no-account" });
    const user = await reader("Rhea");
    await db.updateTable("app_user").set({ status: "restricted" }).where("id", "=", user.id).execute();
    expect(await addStaff(db, COMMAND_LINE, user.email, ["editor"], START)).toEqual({ ok: false, reason: "not-active" });
    await db.updateTable("app_user").set({ status: "active" }).where("id", "=", user.id).execute();

    const first = await addStaff(db, COMMAND_LINE, ` ${user.email.toUpperCase()} `, ["editor"], START);
    const second = await addStaff(db, COMMAND_LINE, user.email, ["service", "editor"], START);
    expect(first).toMatchObject({ ok: true, roles: ["editor"] });
    expect(second).toMatchObject({ ok: true, roles: ["editor", "service"] });
    expect((await listStaff(db)).find((m) => m.userId === user.id)).toMatchObject({ roles: ["editor", "service"], enrolled: false });
  });

  it("opens an enrolment link once, for 24 hours, with the same secret on every visit", async () => {
    const user = await reader("Ines");
    const added = await addStaff(db, COMMAND_LINE, user.email, ["store"], START);
    if (!added.ok) throw new Error(added.reason);
    const first = await openEnrolment(db, added.token, START);
    expect(first?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await openEnrolment(db, added.token, later(3600))).toEqual(first);
    expect(await openEnrolment(db, added.token, later(24 * 3600 + 1))).toBeNull();
    expect(await openEnrolment(db, "not-a-token", START)).toBeNull();

    const someoneElse = await reader("Mallory");
    expect(await completeEnrolment(db, added.token, actorOf(someoneElse), totpCode(first!.secret, START), RULES, START)).toEqual({
      ok: false,
      reason: "dead",
    });
    const done = await completeEnrolment(db, added.token, actorOf(user), totpCode(first!.secret, START), RULES, START);
    expect(done.ok && done.value.recoveryCodes).toHaveLength(10);
    expect(await openEnrolment(db, added.token, START)).toBeNull();
    expect(await completeEnrolment(db, added.token, actorOf(user), totpCode(first!.secret, later(30)), RULES, later(30))).toEqual({
      ok: false,
      reason: "dead",
    });
  });

  it("changes roles, ends the member's desk sessions at once, and never leaves the desk without an admin", async () => {
    const { user } = await enrolledStaff("Ada", ["admin"]);
    const token = await createSession(db, user.id, 30, START);
    await enterDesk(db, token, actorOf(user), "totp", START);
    expect((await staffMemberFor(db, user, token, later(60)))?.deskSessionEnds).toBe(later(12 * 3600).toISOString());

    // Earlier tests made admins too: make this one the only one.
    const others = await db
      .selectFrom("staff_role")
      .select("user_id")
      .where("role", "=", "admin")
      .where("user_id", "!=", user.id)
      .execute();
    for (const other of others) await removeStaff(db, COMMAND_LINE, other.user_id, START);
    expect(await changeRoles(db, actorOf(user), user.id, ["editor"], later(60))).toEqual({ ok: false, reason: "last-admin" });
    expect(await removeStaff(db, actorOf(user), user.id, later(60))).toEqual({ ok: false, reason: "last-admin" });
    expect((await staffMemberFor(db, user, token, later(60)))?.deskSessionEnds).not.toBeNull();

    const { user: second } = await enrolledStaff("Grace", ["admin"]);
    expect(await changeRoles(db, actorOf(second), user.id, ["editor", "admin"], later(90))).toEqual({
      ok: true,
      roles: ["admin", "editor"],
    });
    expect(await staffMemberFor(db, user, token, later(90))).toMatchObject({ roles: ["admin", "editor"], deskSessionEnds: null });
    expect(await changeRoles(db, actorOf(second), user.id, ["admin", "editor"], later(90))).toEqual({ ok: false, reason: "unchanged" });
    expect(await changeRoles(db, actorOf(second), user.id, [], later(90))).toEqual({ ok: false, reason: "no-roles" });
  });

  it("removes a member: roles, second factor and desk sessions go, the reader account stays", async () => {
    const { user, recoveryCodes } = await enrolledStaff("Bea", ["service"]);
    const token = await createSession(db, user.id, 30, START);
    await enterDesk(db, token, actorOf(user), "totp", START);
    expect(await removeStaff(db, COMMAND_LINE, user.id, later(60))).toEqual({ ok: true, email: user.email });
    expect(await staffMemberFor(db, user, token, later(60))).toBeNull();
    expect(await checkSecondFactor(db, user.id, recoveryCodes[0]!, RULES, later(60))).toMatchObject({ ok: false, reason: "invalid" });
    expect(await db.selectFrom("app_user").select("id").where("id", "=", user.id).executeTakeFirst()).toBeDefined();
    expect(await removeStaff(db, COMMAND_LINE, user.id, later(60))).toEqual({ ok: false, reason: "not-staff" });
  });
});

describe("the second factor", () => {
  it("accepts a code once: the same code, or an older step's, is refused afterwards", async () => {
    const { user, secret } = await enrolledStaff("Cyd", ["editor"]);
    // Enrolment used START's step.
    expect(await checkSecondFactor(db, user.id, totpCode(secret, START), RULES, later(5))).toMatchObject({ ok: false, reason: "invalid" });
    const next = later(30);
    expect(await checkSecondFactor(db, user.id, totpCode(secret, next), RULES, next)).toEqual({ ok: true, value: "totp" });
    expect(await checkSecondFactor(db, user.id, totpCode(secret, next), RULES, later(10, next))).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    // Two requests with one fresh code at once: exactly one gets in.
    const third = later(60);
    const both = await Promise.all([0, 1].map(() => checkSecondFactor(db, user.id, totpCode(secret, third), RULES, third)));
    expect(both.map((r) => r.ok).sort()).toEqual([false, true]);
  });

  it("locks the desk's door after five wrong codes, even for the right one, until the lock ends", async () => {
    const { user, secret } = await enrolledStaff("Dot", ["store"]);
    const now = later(300);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await checkSecondFactor(db, user.id, "000000", RULES, now));
    expect(answers.map((a) => (a.ok ? "ok" : a.reason === "invalid" ? `invalid ${a.triesLeft}` : a.reason))).toEqual([
      "invalid 4",
      "invalid 3",
      "invalid 2",
      "invalid 1",
      "locked",
    ]);
    expect(await checkSecondFactor(db, user.id, totpCode(secret, now), RULES, now)).toMatchObject({ ok: false, reason: "locked" });
    const after = later(RULES.lockoutSeconds + 30, now);
    expect(await checkSecondFactor(db, user.id, totpCode(secret, after), RULES, after)).toEqual({ ok: true, value: "totp" });
  });

  it("takes each recovery code once, however it is typed, and new codes void the old", async () => {
    const { user, recoveryCodes } = await enrolledStaff("Eve", ["editor"]);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes[0]).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const stored = await db.selectFrom("staff_recovery_code").select("code_hash").where("user_id", "=", user.id).execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(recoveryCodes[0]);

    const typed = ` ${recoveryCodes[0]!.toUpperCase().replace(/-/g, " ")} `;
    expect(await checkSecondFactor(db, user.id, typed, RULES, later(60))).toEqual({ ok: true, value: "recovery" });
    expect(await checkSecondFactor(db, user.id, recoveryCodes[0]!, RULES, later(61))).toMatchObject({ ok: false, reason: "invalid" });
    expect(await unusedRecoveryCodes(db, user.id)).toBe(9);

    const fresh = await renewRecoveryCodes(db, actorOf(user), later(120));
    expect(await checkSecondFactor(db, user.id, recoveryCodes[1]!, RULES, later(121))).toMatchObject({ ok: false, reason: "invalid" });
    expect(await checkSecondFactor(db, user.id, fresh[0]!, RULES, later(122))).toEqual({ ok: true, value: "recovery" });
  });
});

describe("desk sessions", () => {
  it("last 12 hours, and end when the reader signs out", async () => {
    const { user, secret } = await enrolledStaff("Fay", ["editor"]);
    const token = await createSession(db, user.id, 30, START);
    expect(await staffMemberFor(db, user, token, START)).toMatchObject({ roles: ["editor"], enrolled: true, deskSessionEnds: null });
    const entered = later(45);
    expect(await checkSecondFactor(db, user.id, totpCode(secret, entered), RULES, entered)).toMatchObject({ ok: true });
    await enterDesk(db, token, actorOf(user), "totp", entered);
    expect((await staffMemberFor(db, user, token, later(12 * 3600 - 1, entered)))?.deskSessionEnds).not.toBeNull();
    expect((await staffMemberFor(db, user, token, later(12 * 3600, entered)))?.deskSessionEnds).toBeNull();

    // Another sign-in of the same reader has no desk session of its own.
    const other = await createSession(db, user.id, 30, START);
    expect((await staffMemberFor(db, user, other, later(60, entered)))?.deskSessionEnds).toBeNull();
    await endSession(db, token);
    expect(await db.selectFrom("desk_session").select("session_hash").where("user_id", "=", user.id).execute()).toEqual([]);
  });
});

describe("the audit log", () => {
  it("records every action with who, what, when, and the before and after", async () => {
    const { user: admin } = await enrolledStaff("Gil", ["admin"]);
    const member = await reader("Hal");
    const added = await addStaff(db, actorOf(admin), member.email, ["editor"], later(10));
    if (!added.ok) throw new Error(added.reason);
    const { secret } = (await openEnrolment(db, added.token, later(20)))!;
    await completeEnrolment(db, added.token, actorOf(member), totpCode(secret, later(20)), RULES, later(20));
    const token = await createSession(db, member.id, 30, START);
    await enterDesk(db, token, actorOf(member), "enrolment", later(20));
    await renewRecoveryCodes(db, actorOf(member), later(30));
    await changeRoles(db, actorOf(admin), member.id, ["editor", "store"], later(40));
    await removeStaff(db, actorOf(admin), member.id, later(50));

    const rows = await auditOf(member.email);
    expect(rows.map((r) => [r.at, r.actor, r.action, r.before, r.after])).toEqual([
      [later(10).toISOString(), admin.email, "staff.add", { roles: [] }, { roles: ["editor"] }],
      [later(20).toISOString(), member.email, "second-factor.enrol", null, { enrolledAt: later(20).toISOString(), recoveryCodes: 10 }],
      [later(20).toISOString(), member.email, "desk.enter", null, { by: "enrolment", until: later(20 + 12 * 3600).toISOString() }],
      [later(30).toISOString(), member.email, "recovery-codes.renew", { unused: 10 }, { unused: 10 }],
      [later(40).toISOString(), admin.email, "staff.change-roles", { roles: ["editor"] }, { roles: ["editor", "store"] }],
      [later(50).toISOString(), admin.email, "staff.remove", { roles: ["editor", "store"], enrolled: true }, null],
    ]);
  });

  it("cannot be changed or emptied, and outlives the account it names", async () => {
    const member = await reader("Ivo");
    await addStaff(db, COMMAND_LINE, member.email, ["service"], START);
    const [row] = await auditOf(member.email);
    expect(row).toMatchObject({ actor: "command line", action: "staff.add" });
    await expect(db.updateTable("desk_audit").set({ actor: "someone else" }).where("id", "=", row!.id).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(db.deleteFrom("desk_audit").where("id", "=", row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`delete from desk_audit`.execute(db)).rejects.toThrow(/append-only/);

    await db.deleteFrom("app_user").where("id", "=", member.id).execute();
    expect((await auditOf(member.email)).map((r) => r.id)).toEqual([row!.id]);
    await recordAudit(db, { actor: COMMAND_LINE, action: "staff.remove", subject: `staff:${member.email}` }, later(5));
    expect(await auditOf(member.email)).toHaveLength(2);
  });

  it("filters by actor, action and time, and pages newest first", async () => {
    const actor = { id: null, label: `filter-test-${Date.now()}` };
    for (let i = 0; i < 5; i++) await recordAudit(db, { actor, action: "staff.add", subject: `staff:n${i}` }, later(i * 86_400));
    await recordAudit(db, { actor, action: "staff.remove", subject: "staff:n0" }, later(6 * 86_400));
    const mine = await auditPage(db, { actor: actor.label }, 1, 4);
    expect(mine.total).toBe(6);
    expect(mine.rows.map((r) => r.subject)).toEqual(["staff:n0", "staff:n4", "staff:n3", "staff:n2"]);
    expect((await auditPage(db, { actor: actor.label }, 2, 4)).rows.map((r) => r.subject)).toEqual(["staff:n1", "staff:n0"]);
    expect((await auditPage(db, { actor: actor.label, action: "staff.remove" }, 1, 10)).total).toBe(1);
    const days = await auditPage(
      db,
      { actor: actor.label, from: later(86_400).toISOString(), until: later(3 * 86_400).toISOString() },
      1,
      10,
    );
    expect(days.rows.map((r) => r.subject)).toEqual(["staff:n3", "staff:n2", "staff:n1"]);
  });
});
