import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import { createSession } from "~/server/accounts/sessions";
import { readerForSession } from "~/server/readers/signed-in";
import { signIn } from "~/server/accounts/sign-in";
import type { User } from "~/server/accounts/users";
import { logMail, mailSentTo } from "~/server/adapters/mail-log";
import type { Database } from "~/server/db/connection";
import { COMMAND_LINE, type AuditActor } from "~/server/desk/audit";
import {
  extendCaseStudy,
  extendSubscription,
  findReaders,
  grantComp,
  linkPrint,
  prepareResend,
  readerOverview,
  restrictAccount,
  unlockAccount,
} from "~/server/desk/service";
import { addStaff } from "~/server/desk/staff";
import { downloadsForOrder, openDownload } from "~/server/store/downloads";
import { grantSubscription, subscriberStatus } from "~/server/subscriptions/entitlements";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// Customer service's domain (ADR 087) on the database the run uses: finding readers, the
// overview, and the actions' audit rows, replay keys, refusals and races. Every clock is given.

const RULES = { maxFailures: 5, lockoutSeconds: 900 };
const PASSWORD = "Correct7horse!";
const NOW = new Date("2026-06-10T12:00:00Z");
const DAY = 86_400_000;
const LIMITS = { meterLimit: 8, giftsPerMonth: 5 };
let db: Database;
let close: () => Promise<void>;
let counter = 0;
const agent: AuditActor = { id: null, label: "agent@example.org" };

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function reader(name: string, email?: string): Promise<User> {
  counter += 1;
  const made = await register(
    db,
    {
      firstName: name,
      lastName: "Service",
      email: email ?? `${name.toLowerCase()}.${counter}@service.example`,
      password: PASSWORD,
      optIn: false,
    },
    NOW,
  );
  if (!made.ok) throw new Error(made.reason);
  return made.user;
}

const key = () => crypto.randomBytes(16).toString("base64url");
const input = (user: User, reason = "Asked by phone") => ({ userId: user.id, key: key(), reason });
const audits = (action: string) =>
  db.selectFrom("desk_audit").select(["subject", "before", "after"]).where("action", "=", action).execute();

describe("finding readers", () => {
  it("finds by address or its start, by name, and takes LIKE's own characters as themselves", async () => {
    const a = await reader("Ottoline", "ottoline.morrell@garsington.example");
    await reader("Ottavio", "ottavio@garsington.example");
    expect((await findReaders(db, "OTTOLINE.MORRELL@garsington.example", 1)).readers.map((r) => [r.id, r.matched])).toEqual([
      [a.id, "email"],
    ]);
    expect((await findReaders(db, "otta", 1)).readers.map((r) => r.email)).toEqual(["ottavio@garsington.example"]);
    expect((await findReaders(db, "ottoline service", 1)).readers.map((r) => [r.id, r.matched])).toEqual([[a.id, "name"]]);
    expect((await findReaders(db, "%", 1)).total).toBe(0);
    expect((await findReaders(db, "_ttoline", 1)).total).toBe(0);
    expect((await findReaders(db, "x".repeat(201), 1)).total).toBe(0);
  });

  it("finds an order's buyer by its number, and a page past the last gives the last", async () => {
    const buyer = await reader("Buyer");
    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: NOW.toISOString(),
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const found = await findReaders(db, ` ${order.number.toLowerCase()} `, 99);
    expect(found).toMatchObject({ total: 1, page: 1, pages: 1 });
    expect(found.readers[0]).toMatchObject({ id: buyer.id, matched: "order" });
  });
});

describe("the actions", () => {
  it("unlocks the day-long lock too, once per key, and writes nothing when there is nothing to unlock", async () => {
    const user = await reader("Locked");
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 5; i++) await signIn(db, user.email, "wrong", RULES, new Date(NOW.getTime() + round * 1_000_000 + i));
    const later = new Date(NOW.getTime() + 3_000_000);
    expect(await signIn(db, user.email, PASSWORD, RULES, later)).toMatchObject({ ok: false, reason: "locked" });
    expect((await readerOverview(db, user.id, LIMITS, later))!.signIn).toMatchObject({ locked: true, hardLocked: true });

    const once = input(user);
    expect(await unlockAccount(db, agent, once, later)).toMatchObject({ ok: true, replay: false });
    expect(await unlockAccount(db, agent, once, later)).toMatchObject({ ok: true, replay: true });
    expect((await audits("reader.unlock")).filter((a) => a.subject === `reader:${user.email}`)).toHaveLength(1);
    expect(await signIn(db, user.email, PASSWORD, RULES, later)).toMatchObject({ ok: true });

    const nothing = input(user);
    expect(await unlockAccount(db, agent, nothing, later)).toEqual({ ok: false, reason: "not-locked" });
    // A refusal keeps no key: the same form works once there is something to do.
    await signIn(db, user.email, "wrong", RULES, later);
    expect(await unlockAccount(db, agent, nothing, later)).toMatchObject({ ok: true, replay: false });
  });

  it("restricts a reader (ending their sessions) but never staff", async () => {
    const user = await reader("Risky");
    const token = await createSession(db, user.id, 30, NOW);
    expect(await restrictAccount(db, agent, input(user), NOW)).toMatchObject({ ok: true });
    expect(await readerForSession(db, token, NOW)).toBeUndefined();
    expect(await db.selectFrom("user_session").select("id_hash").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await signIn(db, user.email, PASSWORD, RULES, NOW)).toEqual({ ok: false, reason: "restricted" });
    expect(await restrictAccount(db, agent, input(user), NOW)).toEqual({ ok: false, reason: "already-restricted" });
    expect(await prepareResend(db, agent, { ...input(user), mail: { kind: "reset" } }, NOW)).toEqual({ ok: false, reason: "restricted" });

    const staff = await reader("Staffer");
    await addStaff(db, COMMAND_LINE, staff.email, ["editor"], NOW);
    expect(await restrictAccount(db, agent, input(staff), NOW)).toEqual({ ok: false, reason: "staff" });
  });

  it("grants a comp that ends by itself at the end of its day, and refuses one beside a running web plan", async () => {
    const user = await reader("Comped");
    expect(await grantComp(db, agent, { ...input(user), tier: "EXECUTIVE", endsOn: "2026-06-09" }, NOW)).toEqual({
      ok: false,
      reason: "end-out-of-range",
    });
    expect(await grantComp(db, agent, { ...input(user), tier: "EXECUTIVE", endsOn: "2032-01-01" }, NOW)).toEqual({
      ok: false,
      reason: "end-out-of-range",
    });
    const granted = await grantComp(db, agent, { ...input(user), tier: "EXECUTIVE", endsOn: "2026-07-01" }, NOW);
    expect(granted).toMatchObject({ ok: true, value: "2026-07-01T23:59:59.999Z" });
    expect((await subscriberStatus(db, user.id, NOW))?.tier.name).toBe("Executive");
    expect(await subscriberStatus(db, user.id, new Date("2026-07-01T23:59:59.998Z"))).not.toBeNull();
    expect(await subscriberStatus(db, user.id, new Date("2026-07-02T00:00:00Z"))).toBeNull();
    expect(await grantComp(db, agent, { ...input(user), tier: "GOOD", endsOn: "2026-08-01" }, NOW)).toEqual({
      ok: false,
      reason: "has-plan",
    });
    const overview = (await readerOverview(db, user.id, LIMITS, NOW))!;
    expect(overview.subscriptions).toMatchObject([
      { kind: "complimentary", tier: "Executive", givesAccess: true, extendable: true, card: null },
    ]);
  });

  it("lets exactly one of two extensions from the same page through, and refuses plans it does not keep", async () => {
    const user = await reader("Extended");
    await grantSubscription(
      db,
      {
        userId: user.id,
        roleCode: "MRSUB_GOOD",
        source: "web",
        reference: `t:${key()}`,
        accessStart: NOW,
        accessEnd: new Date("2026-07-10T12:00:00.000Z"),
      },
      NOW,
    );
    const sub = await db.selectFrom("subscription").select(["id", "access_end"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const both = await Promise.all(
      [1, 2].map(() =>
        extendSubscription(
          db,
          agent,
          { ...input(user), subscriptionId: sub.id, seenEnd: sub.access_end, by: { amount: 1, unit: "months" } },
          NOW,
        ),
      ),
    );
    expect(both.filter((o) => o.ok)).toHaveLength(1);
    expect(both.find((o) => !o.ok)).toMatchObject({ ok: false, reason: "changed", by: agent.label });
    expect((await db.selectFrom("subscription").select("access_end").where("id", "=", sub.id).executeTakeFirstOrThrow()).access_end).toBe(
      "2026-08-10T12:00:00.000Z",
    );

    const stranger = await reader("Stranger");
    expect(
      await extendSubscription(
        db,
        agent,
        { ...input(stranger), subscriptionId: sub.id, seenEnd: sub.access_end, by: { amount: 1, unit: "days" } },
        NOW,
      ),
    ).toEqual({
      ok: false,
      reason: "not-found",
    });
    await db.updateTable("subscription").set({ provider_subscription_id: "sub_stripe" }).where("id", "=", sub.id).execute();
    const current = await db.selectFrom("subscription").select("access_end").where("id", "=", sub.id).executeTakeFirstOrThrow();
    expect(
      await extendSubscription(
        db,
        agent,
        { ...input(user), subscriptionId: sub.id, seenEnd: current.access_end, by: { amount: 1, unit: "days" } },
        NOW,
      ),
    ).toEqual({
      ok: false,
      reason: "not-extendable",
    });
  });

  it("links a print record under another address once, and not to a second account", async () => {
    const number = `SV${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    await db
      .insertInto("print_subscriber")
      .values({
        account_number: number,
        email: "elsewhere@print.example",
        first_name: "P",
        last_name: "R",
        source: "CDS_US",
        subscription_code: "PRINT-GOOD",
        active: 1,
        access_start: "2024-01-01",
        access_end: "2027-01-31",
      })
      .execute();
    const first = await reader("Printed");
    const second = await reader("Other");
    expect(await linkPrint(db, agent, { ...input(first), accountNumber: number.toLowerCase() }, NOW)).toMatchObject({
      ok: true,
      value: number,
    });
    expect(await linkPrint(db, agent, { ...input(first), accountNumber: number }, NOW)).toEqual({ ok: false, reason: "already-linked" });
    expect(await linkPrint(db, agent, { ...input(second), accountNumber: number }, NOW)).toEqual({ ok: false, reason: "linked-elsewhere" });
    expect((await findReaders(db, number, 1)).readers.map((r) => [r.id, r.matched])).toEqual([[first.id, "print account"]]);
  });

  it("extends a closed case study, which its downloads then follow, from the end the form showed", async () => {
    const user = await reader("Student");
    const pick = await availabilities(db);
    const paid = new Date(NOW.getTime() - 200 * DAY).toISOString();
    const order = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: paid,
      lines: [{ availabilityId: pick.caseStudy.id }],
    });
    const [line] = await downloadsForOrder(db, order.id, NOW);
    expect(line).toMatchObject({ expired: true });
    const seenEnd = line!.expiresAt!;
    const done = await extendCaseStudy(
      db,
      agent,
      { ...input(user), orderId: order.id, position: 1, seenEnd, by: { amount: 14, unit: "days" } },
      NOW,
    );
    expect(done).toMatchObject({ ok: true, value: new Date(NOW.getTime() + 14 * DAY).toISOString() });
    expect((await downloadsForOrder(db, order.id, NOW))[0]).toMatchObject({ expired: false, expiresAt: done.ok ? done.value : "" });
    expect((await openDownload(db, { orderId: order.id, position: "1", userId: user.id, key: null }, NOW)).status).toBe("ok");
    expect(
      await extendCaseStudy(db, agent, { ...input(user), orderId: order.id, position: 1, seenEnd, by: { amount: 1, unit: "days" } }, NOW),
    ).toMatchObject({
      ok: false,
      reason: "changed",
    });
    const kindle = await insertOrder(db, {
      userId: user.id,
      email: user.email,
      status: "paid",
      createdAt: paid,
      lines: [{ availabilityId: pick.kindle.id }],
    });
    expect(
      await extendCaseStudy(db, agent, { ...input(user), orderId: kindle.id, position: 1, seenEnd, by: { amount: 1, unit: "days" } }, NOW),
    ).toEqual({
      ok: false,
      reason: "not-case-study",
    });
    const [row] = (await audits("download.extend")).filter((a) => a.subject === `download:${order.id}/1`);
    expect(JSON.parse(row!.after!)).toMatchObject({ reason: "Asked by phone", by: "14 days" });
  });
});

describe("the mail log", () => {
  it("keeps each recipient's address, the subject and the time, never the body, newest first", async () => {
    await logMail(db, {
      recipients: ["Mixed <Mixed.Case@Log.example>", "other@log.example"],
      subject: "First",
      messageId: "<1@x>",
      at: NOW,
    });
    await logMail(db, {
      recipients: ["mixed.case@log.example"],
      subject: "Second",
      messageId: "<2@x>",
      at: new Date(NOW.getTime() + 1000),
    });
    expect(await mailSentTo(db, "MIXED.case@log.example")).toEqual([
      { subject: "Second", sentAt: new Date(NOW.getTime() + 1000).toISOString() },
      { subject: "First", sentAt: NOW.toISOString() },
    ]);
    expect(await mailSentTo(db, "other@log.example")).toHaveLength(1);
  });
});
