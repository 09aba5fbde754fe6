import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword } from "~/server/accounts/change-password";
import { requestPasswordReset, resetPassword, userForResetToken } from "~/server/accounts/password-reset";
import { register } from "~/server/accounts/registration";
import { createSession, endSession } from "~/server/accounts/sessions";
import { readerForSession } from "~/server/readers/signed-in";
import { activeLock, signIn } from "~/server/accounts/sign-in";
import { findUserById, updateProfile, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { hit } from "~/server/http/rate-limit";
import { seededTestDatabase } from "~/tests/helpers/test-db";

const RULES = { maxFailures: 5, lockoutSeconds: 900 };
const PASSWORD = "Correct7horse!";
let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function newReader(email: string): Promise<User> {
  const result = await register(db, { firstName: "Ada", lastName: "Reader", email, password: PASSWORD, optIn: false });
  if (!result.ok) throw new Error(`registration failed: ${result.reason}`);
  return result.user;
}

describe("registration", () => {
  it("opens an account once per address, ignoring case and spaces", async () => {
    const user = await newReader("First.Reader@Example.org");
    expect(user.email).toBe("first.reader@example.org");
    const again = await register(db, {
      firstName: "B",
      lastName: "C",
      email: " FIRST.reader@example.org ",
      password: PASSWORD,
      optIn: true,
    });
    expect(again).toEqual({ ok: false, reason: "taken" });
  });

  it("sends print subscribers to subscriber registration and refuses blocked addresses", async () => {
    const input = { firstName: "Ruth", lastName: "Okafor", password: PASSWORD, optIn: false };
    expect(await register(db, { ...input, email: "ruth.okafor@example.com" })).toEqual({ ok: false, reason: "print-subscriber" });
    expect(await register(db, { ...input, email: "anyone@blocked-domain.example" })).toEqual({ ok: false, reason: "restricted" });
    expect(await register(db, { ...input, email: "held.account@example.com" })).toEqual({ ok: false, reason: "restricted" });
  });
});

describe("sign-in", () => {
  it("accepts the right password and stores no plain password", async () => {
    const user = await newReader("signs.in@example.org");
    const result = await signIn(db, "SIGNS.IN@example.org", PASSWORD, RULES);
    expect(result).toMatchObject({ ok: true, user: { id: user.id } });
    const row = await db.selectFrom("app_user").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(PASSWORD);
    // Argon2id at OWASP's first recommendation (ADR 051).
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("still lets in a reader whose password was hashed with scrypt, and hashes it again with Argon2id", async () => {
    const user = await newReader("kept.since.scrypt@example.org");
    const salt = crypto.randomBytes(16);
    const key = crypto.scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const legacy = ["scrypt", 2 ** 14, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    await db.updateTable("app_user").set({ password_hash: legacy }).where("id", "=", user.id).execute();
    const storedHash = async () =>
      (await db.selectFrom("app_user").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow()).password_hash;

    expect(await signIn(db, user.email, "Wrong7horse!", RULES)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await storedHash()).toBe(legacy);
    expect(await signIn(db, user.email, PASSWORD, RULES)).toMatchObject({ ok: true, user: { id: user.id } });
    const upgraded = await storedHash();
    expect(upgraded).toMatch(/^\$argon2id\$/);
    expect(await signIn(db, user.email, PASSWORD, RULES)).toMatchObject({ ok: true, user: { id: user.id } });
    expect(await signIn(db, user.email, "Wrong7horse!", RULES)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await storedHash()).toBe(upgraded);
  });

  it("counts failures down to a lockout, and answers a stranger's address the same way", async () => {
    await newReader("forgetful@example.org");
    for (const email of ["forgetful@example.org", "nobody-here@example.org"]) {
      const tries = [];
      for (let i = 0; i < 4; i++) tries.push(await signIn(db, email, "wrong-Password1!", RULES));
      expect(tries.map((t) => (t.ok ? "ok" : t.reason === "invalid" ? t.triesLeft : t.reason))).toEqual([4, 3, 2, 1]);
      expect(await signIn(db, email, "wrong-Password1!", RULES)).toEqual({ ok: false, reason: "locked", lockoutSeconds: 900 });
    }
    // Even the right password waits for the lock to end.
    expect(await signIn(db, "forgetful@example.org", PASSWORD, RULES)).toMatchObject({ ok: false, reason: "locked" });
    const later = new Date(Date.now() + 901_000);
    expect(await activeLock(db, "forgetful@example.org", later)).toBe(0);
    expect(await signIn(db, "forgetful@example.org", PASSWORD, RULES, later)).toMatchObject({ ok: true });
  });

  it("tells a restricted member only after the right password", async () => {
    const user = await newReader("restricted.later@example.org");
    await db.updateTable("app_user").set({ status: "restricted" }).where("id", "=", user.id).execute();
    expect(await signIn(db, "restricted.later@example.org", "wrong-Password1!", RULES)).toMatchObject({ reason: "invalid" });
    expect(await signIn(db, "restricted.later@example.org", PASSWORD, RULES)).toEqual({ ok: false, reason: "restricted" });
  });

  it("locks an address for a day after three lockouts, and a reset request then answers hard-locked", async () => {
    let now = Date.now();
    for (let lockout = 0; lockout < 3; lockout++) {
      for (let i = 0; i < 5; i++) await signIn(db, "attacked@example.org", "guess-Password1!", RULES, new Date(now));
      now += 901_000;
    }
    expect(await activeLock(db, "attacked@example.org", new Date(now))).toBeGreaterThan(20 * 3600);
    expect(await requestPasswordReset(db, "attacked@example.org", new Date(now))).toEqual({ outcome: "hard-locked" });
  });
});

describe("sessions", () => {
  it("opens a new random session each sign-in and ends it on sign-out", async () => {
    const user = await newReader("sessions@example.org");
    const first = await createSession(db, user.id, 30);
    const second = await createSession(db, user.id, 30);
    expect(first).not.toBe(second);
    expect((await readerForSession(db, first))?.user.id).toBe(user.id);
    await endSession(db, first);
    expect(await readerForSession(db, first)).toBeUndefined();
    expect((await readerForSession(db, second))?.user.id).toBe(user.id);
    const stored = await db.selectFrom("user_session").select("id_hash").where("user_id", "=", user.id).execute();
    expect(stored.map((s) => s.id_hash)).not.toContain(second);
  });

  it("does not open an expired session", async () => {
    const user = await newReader("expiry@example.org");
    const token = await createSession(db, user.id, 1, new Date(Date.now() - 2 * 86_400_000));
    expect(await readerForSession(db, token)).toBeUndefined();
  });
});

describe("passwords", () => {
  it("changes the password only with the current one, and ends the reader's other sessions", async () => {
    const user = await newReader("changer@example.org");
    const here = await createSession(db, user.id, 30);
    const elsewhere = await createSession(db, user.id, 30);
    expect(await changePassword(db, user, { current: "not-it-Password1!", next: "NewPassword9!" }, here, RULES)).toEqual({
      outcome: "wrong-current",
    });
    expect(await changePassword(db, user, { current: PASSWORD, next: "NewPassword9!" }, here, RULES)).toEqual({ outcome: "changed" });
    expect(await readerForSession(db, here)).toBeDefined();
    expect(await readerForSession(db, elsewhere)).toBeUndefined();
    expect(await signIn(db, "changer@example.org", "NewPassword9!", RULES)).toMatchObject({ ok: true });
  });

  it("resets with a single-use link that expires after an hour and ends every session", async () => {
    const user = await newReader("resetter@example.org");
    const session = await createSession(db, user.id, 30);
    expect(await requestPasswordReset(db, "nobody-at-all@example.org")).toEqual({ outcome: "unknown" });
    const request = await requestPasswordReset(db, "Resetter@example.org");
    if (request.outcome !== "sent") throw new Error(request.outcome);
    const stored = await db.selectFrom("password_reset").select("token_hash").where("user_id", "=", user.id).execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(request.token);
    expect(await userForResetToken(db, request.token, new Date(Date.now() + 61 * 60_000))).toBeUndefined();

    const [a, b] = await Promise.all([
      resetPassword(db, request.token, "Replaced1!pass"),
      resetPassword(db, request.token, "Other1!password"),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await readerForSession(db, session)).toBeUndefined();
    expect(await resetPassword(db, request.token, "ThirdTry1!pass")).toBeUndefined();
  });
});

describe("profile", () => {
  it("saves the profile questions and leaves the address alone", async () => {
    const a = await newReader("profile.a@example.org");
    await updateProfile(db, a.id, { displayName: "A", industry: "Media", jobTitle: "Analyst", companySize: "1 to 4" });
    expect(await findUserById(db, a.id)).toMatchObject({ displayName: "A", industry: "Media", email: "profile.a@example.org" });
  });
});

describe("rate limits", () => {
  it("allows the limit in a window, refuses the next hit, and starts again in the next window", async () => {
    const rule = { limit: 3, windowSeconds: 60 };
    const at = new Date("2026-01-01T00:00:10Z");
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit(db, "test:ip:192.0.2.1", rule, at));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(await hit(db, "test:ip:192.0.2.1", rule, new Date("2026-01-01T00:01:00Z"))).toEqual({ allowed: true });
    const burst = await Promise.all(Array.from({ length: 10 }, () => hit(db, "test:burst", rule, at)));
    expect(burst.filter((r) => r.allowed)).toHaveLength(3);
  });
});
