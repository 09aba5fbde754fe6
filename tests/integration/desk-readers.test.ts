import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { deskPeople, STAFF_PASSWORD } from "~/tests/helpers/desk-staff";
import { Reader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { hasSubject, plainText, startLoopbackSmtp, type LoopbackSmtp, type Received } from "~/tests/helpers/smtp";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Customer service at the desk (ADR 087) through the production build, mailing a loopback SMTP
// server: finding readers, a reader's page (and what it never shows), and each action with its
// reason, audit row, mail, replay and refusals; and who may do any of it.

const RESTRICTED_USER = "We're having trouble verifying your account. Please contact our Customer Service team for assistance.";
const REASON_REQUIRED = "Give a reason: it goes into the audit log.";
const DAY = 86_400_000;

let server: RunningServer;
let smtp: LoopbackSmtp;
let connection: IsolatedConnection;
let db: Database;
let agent: { reader: Reader; email: string };

beforeAll(async () => {
  connection = await isolatedConnection("desk-readers");
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000", SMTP_URL: smtp.url }, "production", connection);
  db = connect(connection);
  agent = await deskPeople(server.url, db).staffMember(["service"], "Sam");
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
  await smtp?.stop();
});

const people = () => deskPeople(server.url, db);

/** A reader signed in through the site, with their id. */
async function reader(name: string) {
  const made = await people().signedInReader(name);
  const row = await db.selectFrom("app_user").select("id").where("email", "=", made.email).executeTakeFirstOrThrow();
  return { ...made, id: row.id };
}

/** The reader's page as the agent sees it, and the page's form key. */
async function readerPage(id: string, who: Reader = agent.reader) {
  const page = await who.page(`/desk/readers/${id}`);
  return { page, key: page("input[name=key]").first().attr("value")! };
}

/** Posts one of the reader page's forms as the browser sends it. */
const act = (id: string, fields: Record<string, string>, who: Reader = agent.reader) =>
  who.request(`/desk/readers/${id}`, { form: fields });

const mailsTo = (email: string, subject: RegExp) => smtp.received.filter((m) => m.rcptTo.includes(email) && hasSubject(m, subject));

async function mailTo(email: string, subject: RegExp): Promise<Received> {
  return smtp.waitFor((m) => m.rcptTo.includes(email) && hasSubject(m, subject));
}

const auditRows = (action: string, subject: string) =>
  db.selectFrom("desk_audit").select(["actor", "before", "after"]).where("action", "=", action).where("subject", "=", subject).execute();

const signIn = (email: string, password = STAFF_PASSWORD) =>
  new Reader(server.url).request("/sign-in", { form: { username: email, password, redirectTo: "/" } });

describe("finding a reader", () => {
  it("finds readers by address, its start, name, print account and order number, in pages with links", async () => {
    const stamp = crypto.randomBytes(3).toString("hex");
    const at = new Date().toISOString();
    const rows = Array.from({ length: 23 }, (_, i) => ({
      id: crypto.randomUUID(),
      email: `paged.${stamp}.${String(i).padStart(2, "0")}@example.org`,
      first_name: "Paged",
      last_name: `Zephyrine${stamp}`,
      password_hash: "!",
      created_at: at,
      updated_at: at,
      last_visit_at: null,
      email_verified_at: null,
    }));
    await db.insertInto("app_user").values(rows).execute();

    const first = await agent.reader.page(`/desk/readers?q=paged.${stamp}.`);
    expect(first("[role=status]").text()).toContain("23 readers");
    expect(first("table tbody tr")).toHaveLength(20);
    const next = first("nav a[rel=next]").attr("href")!;
    expect(next).toBe(`/desk/readers?q=paged.${stamp}.&page=2`);
    const second = await agent.reader.page(next);
    expect(second("table tbody tr")).toHaveLength(3);

    const exact = await agent.reader.page(`/desk/readers?q=${encodeURIComponent(rows[7]!.email.toUpperCase())}`);
    expect(exact("table tbody tr a").first().text()).toBe(rows[7]!.email);
    expect(exact("table tbody tr a").first().attr("href")).toBe(`/desk/readers/${rows[7]!.id}`);

    const byName = await agent.reader.page(`/desk/readers?q=${encodeURIComponent(`paged zephyrine${stamp}`)}`);
    expect(byName("[role=status]").text()).toContain("23 readers");

    await db
      .insertInto("print_subscriber")
      .values({
        account_number: `PA${stamp.toUpperCase()}`,
        email: rows[3]!.email,
        first_name: "Paged",
        last_name: "Print",
        source: "CDS_US",
        subscription_code: "PRINT-GOOD",
        active: 1,
        access_start: "2024-01-01",
        access_end: "2099-12-31",
      })
      .execute();
    const byPrint = await agent.reader.page(`/desk/readers?q=pa${stamp}`);
    expect(byPrint("table tbody tr")).toHaveLength(1);
    expect(byPrint("table tbody tr").text()).toContain(rows[3]!.email);
    expect(byPrint("table tbody tr").text()).toContain("print account");

    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId: null,
      email: rows[11]!.email,
      status: "paid",
      createdAt: at,
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const byOrder = await agent.reader.page(`/desk/readers?q=${order.number.toLowerCase()}`);
    expect(byOrder("table tbody tr")).toHaveLength(1);
    expect(byOrder("table tbody tr").text()).toContain(rows[11]!.email);

    const none = await agent.reader.page("/desk/readers?q=nobody.at.all.here@example.org");
    expect(none("[role=status]").text()).toBe("No readers match “nobody.at.all.here@example.org”.");
    expect(none("form[role=search]").attr("method")).toBe("get");
  });
});

describe("a reader's page", () => {
  it("shows what an agent needs, links orders to their desk page, and never a password hash, a session or a card number", async () => {
    const nell = await reader("Nell");
    await subscribe(nell.reader);
    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId: nell.id,
      email: nell.email,
      status: "paid",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.caseStudy.id }],
    });
    await nell.reader.request("/forgot-password", { form: { emailAddress: nell.email } });
    await mailTo(nell.email, /^Reset your Meridian Review password$/);

    const res = await agent.reader.request(`/desk/readers/${nell.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const page = cheerio.load(html);
    expect(page("h1").text()).toBe("Nell Desk");
    const main = page("main").text();
    expect(main).toContain(nell.email);
    expect(main).toContain("Digital");
    expect(main).toMatch(/ending 4242/);
    expect(main).toMatch(/MR-\d{6}/);
    expect(main).toContain("Reset your Meridian Review password");
    expect(page(`a[href="/desk/orders/${order.number}"]`)).toHaveLength(1);
    expect(main).toMatch(/of 8 free articles read/);

    const user = await db.selectFrom("app_user").select("password_hash").where("id", "=", nell.id).executeTakeFirstOrThrow();
    const sessions = await db.selectFrom("user_session").select("id_hash").where("user_id", "=", nell.id).execute();
    const resets = await db.selectFrom("password_reset").select("token_hash").where("user_id", "=", nell.id).execute();
    const cookie = nell.reader.cookieHeader();
    expect(sessions.length).toBeGreaterThan(0);
    for (const secret of [user.password_hash, ...sessions.map((s) => s.id_hash), ...resets.map((r) => r.token_hash)])
      expect(html).not.toContain(secret);
    for (const pair of cookie.split("; ")) expect(html).not.toContain(pair.slice(pair.indexOf("=") + 1));
    expect(html).not.toContain("4242424242424242");
    expect(html).not.toContain("4242 4242 4242 4242");
    expect(html).not.toMatch(/\$argon2/);
  });

  it("answers 404 for an unknown reader, GET and POST", async () => {
    expect((await agent.reader.request("/desk/readers/no-such-reader")).status).toBe(404);
    const { key } = await readerPage((await reader("Known")).id);
    expect((await act("no-such-reader", { intent: "unlock", key, reason: "Asked" })).status).toBe(404);
  });
});

describe("unlocking an account", () => {
  it("asks for a reason, clears the lockout, mails the reader, audits it once however often the form is sent, and the reader signs in", async () => {
    const locked = await reader("Locked");
    for (let i = 0; i < 5; i++) await signIn(locked.email, "Wrong-password-1");
    expect((await signIn(locked.email)).status).toBe(423);

    const { page, key } = await readerPage(locked.id);
    expect(page("main").text()).toMatch(/Locked until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

    const bare = await act(locked.id, { intent: "unlock", key, reason: "  " });
    expect(bare.status).toBe(400);
    const refused = cheerio.load(await bare.text());
    expect(refused("[role=alert]").text()).toContain("There is a problem");
    expect(refused("[role=alert] a[href='#unlock-reason']").text()).toBe(REASON_REQUIRED);
    expect((await signIn(locked.email)).status).toBe(423);

    const done = await act(locked.id, { intent: "unlock", key, reason: "Called from a known number" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`/desk/readers/${locked.id}?done=unlock`);
    const replay = await act(locked.id, { intent: "unlock", key, reason: "Called from a known number" });
    expect(replay.status).toBe(303);

    const after = await agent.reader.page(done.headers.get("location")!);
    expect(after("[role=status]").first().text()).toBe("Unlocked: they can sign in again. They were mailed.");
    await mailTo(locked.email, /^Your Meridian Review account is unlocked$/);
    expect(mailsTo(locked.email, /unlocked/)).toHaveLength(1);
    const rows = await auditRows("reader.unlock", `reader:${locked.email}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toBe(agent.email);
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ reason: "Called from a known number", failures: 0 });
    expect(JSON.parse(rows[0]!.before!)).toMatchObject({ failures: 0 });
    expect((await signIn(locked.email)).status).toBe(303);

    // Nothing left to unlock: said so, nothing written.
    const { key: fresh } = await readerPage(locked.id);
    const again = await act(locked.id, { intent: "unlock", key: fresh, reason: "Again" });
    expect(again.status).toBe(409);
    expect(
      cheerio
        .load(await again.text())("[role=alert]")
        .text(),
    ).toContain("This account is not locked");
    expect(await auditRows("reader.unlock", `reader:${locked.email}`)).toHaveLength(1);
  });
});

describe("restricting an account", () => {
  it("signs the reader out, meets them with the spec's restricted-user message at sign-in and reset, and lifts it again", async () => {
    const kit = await reader("Kit");
    const { key } = await readerPage(kit.id);
    expect((await act(kit.id, { intent: "restrict", key, reason: "Chargeback fraud" })).status).toBe(303);
    await mailTo(kit.email, /^Your Meridian Review account is restricted$/);
    // Their session is gone.
    expect((await kit.reader.request("/my-account")).status).not.toBe(200);
    const refused = await signIn(kit.email);
    expect(refused.status).toBe(403);
    expect(
      cheerio
        .load(await refused.text())("main")
        .text(),
    ).toContain(RESTRICTED_USER);
    const reset = await new Reader(server.url).request("/forgot-password", { form: { emailAddress: kit.email } });
    expect(reset.status).toBe(403);
    expect(
      cheerio
        .load(await reset.text())("main")
        .text(),
    ).toContain(RESTRICTED_USER);

    const { key: second } = await readerPage(kit.id);
    expect((await act(kit.id, { intent: "unrestrict", key: second, reason: "Resolved with the bank" })).status).toBe(303);
    await mailTo(kit.email, /^Your Meridian Review account is open again$/);
    expect((await signIn(kit.email)).status).toBe(303);
    expect(await auditRows("reader.restrict", `reader:${kit.email}`)).toHaveLength(1);
    expect(await auditRows("reader.unrestrict", `reader:${kit.email}`)).toHaveLength(1);
  });

  it("refuses to restrict a staff member", async () => {
    const other = await people().staffMember(["editor"], "Edie");
    const { page, key } = await readerPage(other.userId);
    expect(page("#restrict")).toHaveLength(0);
    const res = await act(other.userId, { intent: "restrict", key, reason: "Testing" });
    expect(res.status).toBe(409);
    expect(await db.selectFrom("app_user").select("status").where("id", "=", other.userId).executeTakeFirstOrThrow()).toEqual({
      status: "active",
    });
  });
});

describe("sending mail again", () => {
  it("sends a password-reset link that works, a verification link, a receipt and an order's confirmation, each through the site's own mail", async () => {
    const ada = await reader("Ada");
    await subscribe(ada.reader);
    await mailTo(ada.email, /receipt MR-/);
    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId: ada.id,
      email: ada.email,
      status: "paid",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.kindle.id }],
    });
    const invoice = await db.selectFrom("invoice").select(["id", "number"]).where("user_id", "=", ada.id).executeTakeFirstOrThrow();

    let { page, key } = await readerPage(ada.id);
    const options = page("#resend-mail option")
      .map((_, el) => page(el).attr("value"))
      .get();
    expect(options).toEqual(["", "verification", "reset", `receipt:${invoice.id}`, `order:${order.id}`]);

    expect((await act(ada.id, { intent: "resend", key, reason: "Lost the mail", mail: "reset" })).headers.get("location")).toContain(
      "done=resend",
    );
    const link = /https?:\/\/\S+\/reset-password\?token=[\w%-]+/.exec(
      plainText((await mailTo(ada.email, /^Reset your Meridian Review password$/)).raw),
    )![0];
    const url = new URL(link);
    const chosen = await new Reader(server.url).request(url.pathname + url.search, {
      form: { token: url.searchParams.get("token")!, newPassword: "Brand-new-pass9!", confirmPassword: "Brand-new-pass9!" },
    });
    expect(chosen.status).toBe(303);
    expect((await signIn(ada.email, "Brand-new-pass9!")).status).toBe(303);

    ({ key } = await readerPage(ada.id));
    const receipts = mailsTo(ada.email, /receipt MR-/).length;
    expect((await act(ada.id, { intent: "resend", key, reason: "Accounts team asked", mail: `receipt:${invoice.id}` })).status).toBe(303);
    expect(mailsTo(ada.email, /receipt MR-/)).toHaveLength(receipts + 1);

    ({ key } = await readerPage(ada.id));
    expect((await act(ada.id, { intent: "resend", key, reason: "No downloads mail", mail: `order:${order.id}` })).status).toBe(303);
    expect(plainText((await mailTo(ada.email, new RegExp(`^Your Meridian Review order ${order.number}$`))).raw)).toContain(
      `/order/${order.id}`,
    );

    ({ page, key } = await readerPage(ada.id));
    // Their verification was by the reset link, so no verification is offered now.
    expect(page("#resend-mail option[value=verification]")).toHaveLength(0);
    const verified = await act(ada.id, { intent: "resend", key, reason: "x", mail: "verification" });
    expect(verified.status).toBe(409);
    const bad = await act(ada.id, { intent: "resend", key, reason: "x", mail: "receipt:<script>" });
    expect(bad.status).toBe(400);
    expect(
      cheerio
        .load(await bad.text())("[role=alert]")
        .text(),
    ).toContain("Choose the mail to send again.");
    expect(await auditRows("reader.resend-mail", `reader:${ada.email}`)).toHaveLength(3);
    expect(page("main").text()).toContain(`Your Meridian Review order ${order.number}`);
  });
});

describe("subscriptions", () => {
  it("grants a complimentary subscription that gives access at once and ends by itself, and extends it", async () => {
    const cal = await reader("Cal");
    const ends = new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10);
    let { key } = await readerPage(cal.id);
    const past = await act(cal.id, { intent: "comp", key, reason: "Apology", tier: "BEST", endsOn: "2020-01-01" });
    expect(past.status).toBe(409);
    const typo = await act(cal.id, { intent: "comp", key, reason: "Apology", tier: "GOLD", endsOn: "soon" });
    expect(typo.status).toBe(400);
    const summary = cheerio
      .load(await typo.text())("[role=alert]")
      .text();
    expect(summary).toContain("Choose the tier.");
    expect(summary).toContain("Enter the day it ends");
    expect(await subscriberStatus(db, cal.id)).toBeNull();

    expect((await act(cal.id, { intent: "comp", key, reason: "Apology for the outage", tier: "BEST", endsOn: ends })).status).toBe(303);
    expect((await act(cal.id, { intent: "comp", key, reason: "Apology for the outage", tier: "BEST", endsOn: ends })).status).toBe(303);
    const subs = await db
      .selectFrom("subscription")
      .select(["id", "access_end", "role_code", "billing_status"])
      .where("user_id", "=", cal.id)
      .execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ access_end: `${ends}T23:59:59.999Z`, role_code: "MRSUB_BEST", billing_status: null });
    expect((await subscriberStatus(db, cal.id))?.tier.name).toBe("Best");
    expect(await subscriberStatus(db, cal.id, new Date(Date.parse(`${ends}T23:59:59.999Z`) + 1))).toBeNull();
    expect(plainText((await mailTo(cal.email, /^A complimentary Meridian Review subscription for you$/)).raw)).toContain(
      "complimentary Best (Premium) subscription",
    );

    // A running plan is extended, not granted again.
    const running = await readerPage(cal.id);
    key = running.key;
    expect(running.page("#comp")).toHaveLength(0);
    const seen = subs[0]!.access_end;
    const extend = { intent: "extend", key, reason: "Goodwill", subscription: subs[0]!.id, accessEnd: seen, amount: "10", unit: "days" };
    expect((await act(cal.id, { ...extend, amount: "400" })).status).toBe(400);
    expect((await act(cal.id, extend)).status).toBe(303);
    const moved = await db.selectFrom("subscription").select("access_end").where("id", "=", subs[0]!.id).executeTakeFirstOrThrow();
    expect(moved.access_end).toBe(new Date(Date.parse(seen) + 10 * DAY).toISOString());
    await mailTo(cal.email, /^Your Meridian Review subscription was extended$/);

    // The same form from a tab opened before: refused, with who changed it.
    ({ key } = await readerPage(cal.id));
    const stale = await act(cal.id, { ...extend, key });
    expect(stale.status).toBe(409);
    expect(
      cheerio
        .load(await stale.text())("[role=alert]")
        .text(),
    ).toMatch(/This subscription was changed by Sam Desk at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC since you opened it\./);
    expect(await auditRows("subscription.extend", `subscription:${subs[0]!.id}`)).toHaveLength(1);
    expect(await auditRows("subscription.comp", `reader:${cal.email}`)).toHaveLength(1);
  });

  it("links a print subscription by its account number and unlinks it", async () => {
    const pat = await reader("Pat");
    const number = `PR${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    await db
      .insertInto("print_subscriber")
      .values({
        account_number: number,
        email: "old.address@example.org",
        first_name: "Pat",
        last_name: "Desk",
        source: "CDS_UK",
        subscription_code: "PRINT-BETTER",
        active: 1,
        access_start: "2024-01-01",
        access_end: "2099-06-30",
      })
      .execute();
    let { key } = await readerPage(pat.id);
    expect((await act(pat.id, { intent: "link-print", key, reason: "Verified by phone", accountNumber: "NOPE1" })).status).toBe(409);
    expect(
      (await act(pat.id, { intent: "link-print", key, reason: "Verified by phone", accountNumber: number.toLowerCase() })).status,
    ).toBe(303);
    expect((await subscriberStatus(db, pat.id))?.tier.name).toBe("Better");
    await mailTo(pat.email, /^Your print subscription is linked/);
    const page = (await readerPage(pat.id)).page;
    expect(page("main").text()).toContain(`Account ${number}, PRINT-BETTER, until 2099-06-30: active, linked`);

    ({ key } = await readerPage(pat.id));
    expect((await act(pat.id, { intent: "unlink-print", key, reason: "Wrong account", accountNumber: number })).status).toBe(303);
    expect(await subscriberStatus(db, pat.id)).toBeNull();
    await mailTo(pat.email, /^Your print subscription was unlinked/);
  });
});

describe("a case study's downloads", () => {
  it("extends six-month access that has closed, and the buyer downloads again", async () => {
    const buyer = await reader("Buyer");
    const pick = await availabilities(db);
    const paid = new Date(Date.now() - 200 * DAY).toISOString();
    const order = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: paid,
      lines: [{ availabilityId: pick.caseStudy.id }],
    });
    expect((await buyer.reader.request(`/download/order/${order.id}/1`)).status).toBe(410);

    const { page, key } = await readerPage(buyer.id);
    const form = page(`#extend-download-${order.id}-1`);
    const expiresAt = form.find("input[name=expiresAt]").attr("value")!;
    expect(form.text()).toContain("closed until");
    const res = await act(buyer.id, {
      intent: "extend-download",
      key,
      reason: "Course ran late",
      order: order.id,
      position: "1",
      expiresAt,
      amount: "1",
      unit: "months",
    });
    expect(res.status).toBe(303);
    expect((await buyer.reader.request(`/download/order/${order.id}/1`)).status).toBe(200);
    await mailTo(buyer.email, /^More time for your case study downloads$/);
    expect(await auditRows("download.extend", `download:${order.id}/1`)).toHaveLength(1);
  });
});

describe("who may", () => {
  it("gives store and editor staff 403 and writes nothing, and everyone without a role the 404", async () => {
    const target = await reader("Target");
    for (let i = 0; i < 5; i++) await signIn(target.email, "Wrong-password-1");
    const { key } = await readerPage(target.id);
    const plain = await reader("Plain");
    const askers: [Reader, number][] = [
      [(await people().staffMember(["store"], "Stu")).reader, 403],
      [(await people().staffMember(["editor"], "Eddie")).reader, 403],
      [plain.reader, 404],
      [new Reader(server.url), 404],
    ];
    for (const [who, status] of askers) {
      expect((await who.request(`/desk/readers?q=${encodeURIComponent(target.email)}`)).status).toBe(status);
      expect((await who.request(`/desk/readers/${target.id}`)).status).toBe(status);
      expect((await act(target.id, { intent: "unlock", key, reason: "Not mine to do" }, who)).status).toBe(status);
      expect((await act(target.id, { intent: "comp", key, reason: "No", tier: "GOOD", endsOn: "2099-01-01" }, who)).status).toBe(status);
    }
    expect((await signIn(target.email)).status).toBe(423);
    expect(await db.selectFrom("subscription").select("id").where("user_id", "=", target.id).execute()).toEqual([]);
    expect(await auditRows("reader.unlock", `reader:${target.email}`)).toEqual([]);
    expect(await db.selectFrom("service_request").select("key").where("user_id", "=", target.id).execute()).toEqual([]);
  });
});
