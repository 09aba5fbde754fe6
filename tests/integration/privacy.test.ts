import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { findPlan } from "~/server/subscriptions/plans";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// My account's privacy pages against the production build (ADR 089): the data as a page and a
// JSON file, and "Delete my account" with its password check (sign-in's lockout), its refusal
// while a plan renews, the confirmation mail, and what is left afterwards. One server for the file.

const PASSWORD = "Lantern5!quay";
let server: RunningServer;
let smtp: LoopbackSmtp;
let database: IsolatedConnection;
let db: Database;
let counter = 0;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  database = await isolatedConnection("privacy");
  server = await startBuiltServer({ SMTP_URL: smtp.url, LOGIN_MAX_FAILURES: "3" }, "production", database);
  db = connect(database);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await database?.drop();
  await smtp?.stop();
});

async function newReader(): Promise<{ reader: Reader; email: string; userId: string }> {
  counter += 1;
  const email = `privacy${counter}.${process.pid}.${Date.now()}@example.org`;
  const reader = new Reader(server.url);
  const res = await reader.request("/register", {
    form: { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD },
  });
  expect(res.status).toBe(303);
  const { id } = await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { reader, email, userId: id };
}

const deleteWith = (reader: Reader, currentPassword: string) => reader.request("/my-account/delete", { form: { currentPassword } });

describe("a reader's data", () => {
  it("is a page and a JSON file to download, both theirs alone and never stored by the browser", async () => {
    const { reader, email } = await newReader();
    const $account = await reader.page("/my-account");
    expect($account('a[href="/my-account/data"]').text()).toBe("Download my data");
    expect($account('a[href="/my-account/delete"]').text()).toBe("Delete my account");

    const $page = await reader.page("/my-account/data");
    expect($page("h1").text()).toBe("Your data");
    expect(
      $page("main h2")
        .map((_, h) => $page(h).text())
        .get(),
    ).toEqual(expect.arrayContaining(["Your profile", "Orders", "Mail we sent you"]));
    expect($page("main").text()).toContain(email);
    expect($page('a[href="/my-account/data.json"]').attr("download")).toBeDefined();

    const file = await reader.request("/my-account/data.json");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="meridian-review-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(file.headers.get("cache-control")).toContain("no-store");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const json = (await file.json()) as { profile: { emailAddress: string }; signIn: { sessions: { browser: string | null }[] } };
    expect(json.profile.emailAddress).toBe(email);
    // The registration started a session, recorded with its browser (fetch's own user agent).
    expect(json.signIn.sessions).toHaveLength(1);
    expect(json.signIn.sessions[0]!.browser).toBeTruthy();

    const guest = await new Reader(server.url).request("/my-account/data.json");
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toBe("/sign-in?redirectTo=%2Fmy-account%2Fdata.json");
  });
});

describe("deleting an account", () => {
  it("asks for the password under sign-in's lockout; then erases the account, signs it out, mails the old address, keeps the order, frees the address", async () => {
    const { reader, email, userId } = await newReader();
    const pick = await availabilities(db);
    const order = await insertOrder(db, {
      userId,
      email,
      status: "paid",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.kindle.id }],
    });

    const $form = await reader.page("/my-account/delete");
    expect($form("main form[method=post] button[type=submit]").text()).toBe("Delete my account");
    const empty = await deleteWith(reader, "");
    expect(empty.status).toBe(400);
    expect(
      cheerio
        .load(await empty.text())("#delete-account-currentPassword-error")
        .text(),
    ).toBe("Current Password is required");
    const wrong = await deleteWith(reader, "Wrong5!lantern");
    expect(wrong.status).toBe(400);
    expect(
      cheerio
        .load(await wrong.text())("#delete-account-currentPassword-error")
        .text(),
    ).toBe("Current Password is invalid");

    // A second reader's wrong passwords lock their address, as sign-in's do: even the right one is refused then.
    const other = await newReader();
    await deleteWith(other.reader, "Wrong5!lantern");
    await deleteWith(other.reader, "Wrong5!lantern");
    const locked = await deleteWith(other.reader, "Wrong5!lantern");
    expect(locked.status).toBe(423);
    expect(
      cheerio
        .load(await locked.text())("#delete-account-currentPassword-error")
        .text(),
    ).toMatch(/^Your account is blocked, please wait/);
    expect((await deleteWith(other.reader, PASSWORD)).status).toBe(423);
    expect((await other.reader.request("/my-account")).status).toBe(200);

    const done = await deleteWith(reader, PASSWORD);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/account-deleted");
    expect(done.headers.getSetCookie().some((c) => /^mr_session=;.*Max-Age=0/i.test(c))).toBe(true);
    const $gone = await reader.page("/account-deleted");
    expect($gone("h1").text()).toBe("Your account has been deleted");
    expect((await reader.request("/my-account")).status).toBe(302);

    const mail = await smtp.waitFor((m) => m.rcptTo.includes(email) && /account has been deleted/.test(m.raw));
    expect(plainText(mail.raw)).toContain("so we keep 1 order in our books");
    // Sent to the address the deletion erased everywhere, so it is not in the mail log either.
    expect(await db.selectFrom("mail_log").select("id").where("recipient", "=", email).execute()).toEqual([]);
    expect(await db.selectFrom("app_user").select("id").where("id", "=", userId).execute()).toEqual([]);
    expect(
      await db.selectFrom("store_order").select(["user_id", "email", "buyer_name"]).where("id", "=", order.id).executeTakeFirst(),
    ).toEqual({
      user_id: null,
      email: "",
      buyer_name: "Nell Ransome",
    });
    // The order's old link opens nothing.
    expect((await new Reader(server.url).request(`/order/${order.id}?key=${order.accessToken}`)).status).toBe(404);

    const again = await new Reader(server.url).request("/register", {
      form: { firstName: "Nell", lastName: "Again", emailAddress: email, password: PASSWORD },
    });
    expect(again.status).toBe(303);
  });

  it("tells a reader whose plan still renews to cancel it first, and deletes nothing", async () => {
    const { reader, userId } = await newReader();
    const plan = findPlan("digital")!;
    await db
      .insertInto("subscription")
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        role_code: plan.roleCode,
        source: "web",
        reference: `privacy-${crypto.randomUUID()}`,
        status: "active",
        access_start: new Date().toISOString(),
        access_end: new Date(Date.now() + 20 * 86_400_000).toISOString(),
        created_at: new Date().toISOString(),
        plan_id: plan.id,
        billing_status: "active",
        payment_method_id: "pm_privacy",
        card_brand: "visa",
        card_last4: "4242",
      })
      .execute();
    const $page = await reader.page("/my-account/delete");
    expect($page('main form[action="/my-account/delete"]')).toHaveLength(0);
    expect($page("main").text()).toContain(`Your ${plan.name} subscription renews on`);
    expect($page('main a[href="/my-account/billing/cancel"]').text()).toBe("Cancel your subscription");
    const refused = await deleteWith(reader, PASSWORD);
    expect(refused.status).toBe(409);
    expect(
      cheerio
        .load(await refused.text())("main")
        .text(),
    ).toContain("Cancel it first in Subscription and billing");
    expect((await reader.request("/my-account")).status).toBe(200);
  });
});
