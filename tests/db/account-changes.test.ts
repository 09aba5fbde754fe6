import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCurrentPassword } from "~/server/accounts/change-password";
import { confirmEmailChange, pendingEmailFor, requestAddressVerification, requestEmailChange } from "~/server/accounts/email-change";
import { linkPrintSubscription, registerPrintSubscriber } from "~/server/accounts/print-subscribers";
import { register } from "~/server/accounts/registration";
import { activeLock, signIn, type SignInResult } from "~/server/accounts/sign-in";
import { hashToken } from "~/server/accounts/tokens";
import { findUserById, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// E-mail change by mailed link, print-subscription linking, lapsed subscribers, and the
// lockout under concurrent attempts (issue 12, ADR 021), on the database the run uses.

const RULES = { maxFailures: 5, lockoutSeconds: 900 };
const PASSWORD = "Correct7horse!";
const WRONG = "Wrong7horse!";
const NOVEMBER = new Date("2026-11-20T12:00:00Z");
let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function newReader(email: string): Promise<User> {
  const result = await register(db, { firstName: "Ada", lastName: "Reader", email, password: PASSWORD, optIn: false }, NOVEMBER);
  if (!result.ok) throw new Error(`registration failed: ${result.reason}`);
  return result.user;
}

async function requestToken(user: User, email: string, now = NOVEMBER): Promise<string> {
  const request = await requestEmailChange(db, user, email, now);
  if (request.outcome !== "sent") throw new Error(`change not sent: ${JSON.stringify(request)}`);
  return request.token;
}

describe("e-mail change", () => {
  it("changes nothing until the link mailed to the new address is followed, and the link works once", async () => {
    const user = await newReader("mover@example.org");
    const token = await requestToken(user, " Moved@Example.org ");
    const stored = await db
      .selectFrom("email_change")
      .select(["token_hash", "new_email"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ token_hash: hashToken(token), new_email: "moved@example.org" });
    expect((await findUserById(db, user.id))?.email).toBe("mover@example.org");
    expect(await pendingEmailFor(db, user, NOVEMBER)).toBe("moved@example.org");

    const confirmed = await confirmEmailChange(db, token, NOVEMBER);
    expect(confirmed).toMatchObject({ outcome: "changed", previousEmail: "mover@example.org", user: { email: "moved@example.org" } });
    expect(await findUserById(db, user.id)).toMatchObject({ email: "moved@example.org", emailVerifiedAt: NOVEMBER.toISOString() });
    expect(await confirmEmailChange(db, token, NOVEMBER)).toEqual({ outcome: "dead" });
    expect(await signIn(db, "moved@example.org", PASSWORD, RULES, NOVEMBER)).toMatchObject({ ok: true });
  });

  it("lets a link expire after 24 hours, and a newer request replaces an older one", async () => {
    const user = await newReader("slow.mover@example.org");
    const expired = await requestToken(user, "slow.new@example.org");
    expect(await confirmEmailChange(db, expired, new Date(NOVEMBER.getTime() + 24 * 3_600_000 + 1000))).toEqual({ outcome: "dead" });
    const first = await requestToken(user, "first.choice@example.org");
    const second = await requestToken(user, "second.choice@example.org");
    expect(await confirmEmailChange(db, first, NOVEMBER)).toEqual({ outcome: "dead" });
    expect(await confirmEmailChange(db, second, NOVEMBER)).toMatchObject({ outcome: "changed" });
    expect((await findUserById(db, user.id))?.email).toBe("second.choice@example.org");
  });

  it("applies a link followed twice at once exactly once", async () => {
    const user = await newReader("double.click@example.org");
    const token = await requestToken(user, "double.clicked@example.org");
    const results = await Promise.all([confirmEmailChange(db, token, NOVEMBER), confirmEmailChange(db, token, NOVEMBER)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["changed", "dead"]);
  });

  it("refuses another reader's address, a blocked address and a print subscriber's address", async () => {
    const user = await newReader("refused.mover@example.org");
    await newReader("someone.else@example.org");
    const refusals = [];
    for (const email of [
      "SOMEONE.ELSE@example.org",
      "anyone@blocked-domain.example",
      "held.account@example.com",
      "ruth.okafor@example.com",
      "lapsed.reader@example.com",
    ]) {
      refusals.push(await requestEmailChange(db, user, email, NOVEMBER));
    }
    expect(refusals).toEqual([
      { outcome: "refused", reason: "taken" },
      { outcome: "refused", reason: "restricted" },
      { outcome: "refused", reason: "restricted" },
      { outcome: "refused", reason: "print-subscriber" },
      { outcome: "refused", reason: "print-subscriber" },
    ]);
    expect(await db.selectFrom("email_change").select("token_hash").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("checks the address again when the link is followed", async () => {
    const user = await newReader("late.mover@example.org");
    const token = await requestToken(user, "contested@example.org");
    await newReader("contested@example.org");
    expect(await confirmEmailChange(db, token, NOVEMBER)).toEqual({ outcome: "refused", reason: "taken" });
    expect((await findUserById(db, user.id))?.email).toBe("late.mover@example.org");
  });
});

describe("the print-subscription takeover", () => {
  it("fails at every step, and the real subscriber still registers", async () => {
    // 1. Any account.
    const intruder = await newReader("intruder@example.org");
    // 2. Moving it onto the subscriber's address is refused.
    expect(await requestEmailChange(db, intruder, "anders.lindqvist@example.co.uk", NOVEMBER)).toEqual({
      outcome: "refused",
      reason: "print-subscriber",
    });
    // 3. Linking with the account number from a mailing label finds nothing under the intruder's address.
    expect(await linkPrintSubscription(db, intruder, "MR20077310", NOVEMBER)).toBe("no-active-subscription");
    expect(await subscriberStatus(db, intruder.id, NOVEMBER)).toBeNull();
    // 4. The subscriber opens their account.
    const real = await registerPrintSubscriber(
      db,
      { email: "anders.lindqvist@example.co.uk", accountNumber: "MR20077310", password: PASSWORD, optIn: false },
      NOVEMBER,
    );
    expect(real.ok).toBe(true);
  });

  it("links a subscription only once the account's address is verified by a mailed link", async () => {
    // A lapsed subscriber's address registers as a reader's; the publisher later renews the subscription.
    const reader = await newReader("lapsed.reader@example.com");
    await db
      .updateTable("print_subscriber")
      .set({ active: 1, access_end: "2027-02-28" })
      .where("account_number", "=", "MR10019964")
      .execute();
    expect(await linkPrintSubscription(db, reader, "MR10019964", NOVEMBER)).toBe("unverified");
    expect(await subscriberStatus(db, reader.id, NOVEMBER)).toBeNull();

    const token = await requestAddressVerification(db, reader, NOVEMBER);
    expect(await confirmEmailChange(db, token, NOVEMBER)).toMatchObject({ outcome: "verified" });
    const verified = (await findUserById(db, reader.id))!;
    expect(verified.emailVerifiedAt).toBe(NOVEMBER.toISOString());
    expect(await linkPrintSubscription(db, verified, "MR10019964", NOVEMBER)).toBe("linked");
    expect((await subscriberStatus(db, reader.id, NOVEMBER))?.tier.name).toBe("Good");
    // Once linked, the account may keep (or come back to) the subscriber's address.
    await db
      .updateTable("print_subscriber")
      .set({ active: 0, access_end: "2022-02-28" })
      .where("account_number", "=", "MR10019964")
      .execute();
  });
});

describe("lapsed print subscribers", () => {
  it("register as ordinary readers; an active subscription still goes to subscriber registration", async () => {
    const input = { firstName: "Marta", lastName: "Quintero", password: PASSWORD, optIn: false };
    await db
      .updateTable("print_subscriber")
      .set({ email: "marta.lapsed@example.com" })
      .where("account_number", "=", "MR10019964")
      .execute();
    const lapsed = await register(db, { ...input, email: "marta.lapsed@example.com" }, NOVEMBER);
    expect(lapsed).toMatchObject({ ok: true, user: { email: "marta.lapsed@example.com" } });
    expect(await register(db, { ...input, email: "ruth.okafor@example.com" }, NOVEMBER)).toEqual({ ok: false, reason: "print-subscriber" });
    // The same subscription after its access ended counts as lapsed.
    expect(await register(db, { ...input, email: "ruth.okafor@example.com" }, new Date("2028-01-02T00:00:00Z"))).toMatchObject({
      ok: true,
    });
  });
});

describe("the current-password question", () => {
  it("counts towards the sign-in lockout", async () => {
    const user = await newReader("guessed@example.org");
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await checkCurrentPassword(db, user, WRONG, RULES, NOVEMBER));
    expect(answers.map((a) => a.outcome)).toEqual(["wrong-current", "wrong-current", "wrong-current", "wrong-current", "locked", "locked"]);
    expect(await checkCurrentPassword(db, user, PASSWORD, RULES, NOVEMBER)).toEqual({ outcome: "locked", lockoutSeconds: 900 });
    expect(await signIn(db, user.email, PASSWORD, RULES, NOVEMBER)).toEqual({ ok: false, reason: "locked", lockoutSeconds: 900 });
  });
});

/** The answers, as "invalid:<tries left>", "locked:<seconds>" or "ok", sorted. */
function tally(results: SignInResult[]): string[] {
  return results
    .map((r) =>
      r.ok ? "ok" : r.reason === "invalid" ? `invalid:${r.triesLeft}` : r.reason === "locked" ? `locked:${r.lockoutSeconds}` : r.reason,
    )
    .sort();
}

describe("the lockout under concurrent attempts", () => {
  it("compares no more than five passwords however many wrong ones arrive at once", async () => {
    const user = await newReader("parallel.guesses@example.org");
    const results = await Promise.all(Array.from({ length: 12 }, () => signIn(db, user.email, WRONG, RULES, NOVEMBER)));
    expect(tally(results)).toEqual(["invalid:1", "invalid:2", "invalid:3", "invalid:4", ...Array(8).fill("locked:900")]);
    const row = await db
      .selectFrom("login_failure")
      .select(["failures", "lockouts", "hard_locked"])
      .where("email", "=", user.email)
      .executeTakeFirstOrThrow();
    expect({ ...row, hard_locked: Number(row.hard_locked) }).toEqual({ failures: 0, lockouts: 1, hard_locked: 0 });
  });

  it("refuses the right password once the lock is decided, while the wrong attempts are still being checked", async () => {
    const user = await newReader("parallel.right@example.org");
    const wrong = Array.from({ length: 8 }, () => signIn(db, user.email, WRONG, RULES, NOVEMBER));
    // The fifth claimed try sets the lock before any password has been compared.
    while ((await activeLock(db, user.email, NOVEMBER)) === 0) await new Promise((resolve) => setImmediate(resolve));
    const right = signIn(db, user.email, PASSWORD, RULES, NOVEMBER);
    const results = await Promise.all([...wrong, right]);
    expect(results[8]).toEqual({ ok: false, reason: "locked", lockoutSeconds: 900 });
    expect(tally(results)).toEqual(["invalid:1", "invalid:2", "invalid:3", "invalid:4", ...Array(5).fill("locked:900")]);
    expect(await activeLock(db, user.email, NOVEMBER)).toBe(900);
  });

  it("lets the right password in among fewer wrong attempts than the limit", async () => {
    const user = await newReader("parallel.few@example.org");
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => signIn(db, user.email, WRONG, RULES, NOVEMBER)),
      signIn(db, user.email, PASSWORD, RULES, NOVEMBER),
    ]);
    expect(results[3]).toMatchObject({ ok: true, user: { id: user.id } });
    expect(results.slice(0, 3).map((r) => !r.ok && r.reason)).toEqual(["invalid", "invalid", "invalid"]);
    expect(await activeLock(db, user.email, NOVEMBER)).toBe(0);
  });
});
