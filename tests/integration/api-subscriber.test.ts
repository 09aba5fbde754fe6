import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import type { ApiBody, ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import type { RunningServer } from "~/tests/helpers/server";
import { plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// The subscriber group of the service API (spec 7, "Auth and user": subscriber search and
// registration, subscribe, userRef, checkoutComplete, transactionComplete) against the
// production build and a real database. Each answer is checked against the published OpenAPI
// document; the rules are those of /subscriber-registration, sign-in and the subscription
// checkout, so their limits and wording show here too.

const PASSWORD = "Lantern5!quay";
const NO_ACTIVE = "No Active Subscriptions Found";
const UNAVAILABLE = "That username is unavailable. Sign in or choose another email address.";
const INVALID = "You have entered an invalid email and password combination. Please try again.";
const REQUIRED = "This field is required.";
/** Lookups per address in the rate-limit window (the server's RATE_LIMIT_PER_ACCOUNT). */
const PER_ADDRESS = 6;

let site: ApiSite;
let server: RunningServer;
let contract: ApiContract;
let smtp: LoopbackSmtp;
let database: Database;
let counter = 0;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  site = await startApiSite("apisub", { SMTP_URL: smtp.url, RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: String(PER_ADDRESS) });
  ({ server, contract, database } = site);
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

const uniqueEmail = (label: string) => `${label}.${++counter}.${process.pid}.${Date.now()}@example.org`;
const guest = () => new Reader(server.url);

/** A print-subscription record as the fulfilment house sends it (server/seed/account-records.ts). */
async function printRecord(
  overrides: Partial<{ email: string; source: string; subscriptionCode: string; active: boolean; accessEnd: string }> = {},
) {
  const record = {
    accountNumber: `MRT${process.pid % 1000}${++counter}${Date.now() % 100000}`,
    email: uniqueEmail("print"),
    source: "CDS_UK",
    subscriptionCode: "PRINT-BEST",
    active: true,
    accessEnd: "2099-06-30",
    ...overrides,
  };
  await database
    .insertInto("print_subscriber")
    .values({
      account_number: record.accountNumber,
      email: record.email,
      first_name: "Ines",
      last_name: "Achterberg",
      source: record.source,
      subscription_code: record.subscriptionCode,
      active: record.active ? 1 : 0,
      access_start: "2024-07-01",
      access_end: record.accessEnd,
    })
    .execute();
  return record;
}

const api = (reader: Reader, method: string, path: string, body?: unknown) => contract.call(reader, method, path, { body });

const accountsWith = async (email: string) =>
  (await database.selectFrom("app_user").select("id").where("email", "=", email).execute()).length;

const grants = async (reference: string) =>
  (await database.selectFrom("subscription").select("id").where("reference", "=", reference).execute()).length;

/** A reader who registered on the site with this address, signed out again (a fresh client). */
async function webAccount(email: string): Promise<void> {
  const { status } = await api(guest(), "POST", "/api/user/register", {
    firstName: "Nell",
    lastName: "Ransome",
    emailAddress: email,
    password: PASSWORD,
  });
  expect(status).toBe(201);
}

/** Follows the confirmation link mailed to this address, as its owner would. */
async function confirmAddress(email: string): Promise<void> {
  const mail = await smtp.waitFor((m) => m.rcptTo.includes(email) && /confirm-email\?token=/.test(plainText(m.raw)));
  const link = new URL(plainText(mail.raw).match(/https?:\/\/\S+\/confirm-email\?token=[\w%-]+/)![0]);
  const res = await guest().request("/confirm-email", { form: { token: link.searchParams.get("token")! } });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/confirm-email?done=verified");
}

describe("POST /api/user/subscriber/search", () => {
  const SEARCH = "/api/user/subscriber/search";

  it("finds the active subscription with that address and account number, and says whether it is linked and has an account", async () => {
    const record = await printRecord();
    const found = await api(guest(), "POST", SEARCH, {
      emailAddress: record.email.toUpperCase(),
      accountNumber: record.accountNumber.toLowerCase(),
    });
    expect(found.status).toBe(200);
    expect(found.json).toEqual({
      active: true,
      subscriptions: [
        {
          accountNumber: record.accountNumber,
          subscriptionCode: "PRINT-BEST",
          tier: "Best",
          accessStart: "2024-07-01",
          accessEnd: "2099-06-30",
        },
      ],
      firstName: "Ines",
      lastName: "Achterberg",
      new: true,
      userAccountExists: false,
    });

    const registered = await api(guest(), "POST", "/api/user/subscriber/register", {
      emailAddress: record.email,
      accountNumber: record.accountNumber,
      password: PASSWORD,
      id: "search-then-register",
    });
    expect(registered.status).toBe(201);
    const again = await api(guest(), "POST", SEARCH, { emailAddress: record.email, accountNumber: record.accountNumber });
    expect(again.json).toMatchObject({ active: true, new: false, userAccountExists: true });
  });

  it('answers 404 "No Active Subscriptions Found" for a wrong number, another address, a lapsed, ended or unlinkable record', async () => {
    const record = await printRecord();
    const lapsed = await printRecord({ active: false });
    const ended = await printRecord({ accessEnd: "2020-01-31" });
    const otherSource = await printRecord({ source: "NEWSSTAND" });
    for (const body of [
      { emailAddress: record.email, accountNumber: "MR00000000" },
      { emailAddress: uniqueEmail("stranger"), accountNumber: record.accountNumber },
      { emailAddress: lapsed.email, accountNumber: lapsed.accountNumber },
      { emailAddress: ended.email, accountNumber: ended.accountNumber },
      { emailAddress: otherSource.email, accountNumber: otherSource.accountNumber },
    ]) {
      const refused = await api(guest(), "POST", SEARCH, body);
      expect(refused.status, JSON.stringify(body)).toBe(404);
      expect(refused.json).toEqual({ code: "no_active_subscription", message: NO_ACTIVE });
    }
  });

  it("refuses bad input with each field's message", async () => {
    const missing = await api(guest(), "POST", SEARCH, {});
    expect(missing.status).toBe(400);
    expect(missing.json.fields).toEqual({ emailAddress: [REQUIRED], accountNumber: [REQUIRED] });
    const bad = await api(guest(), "POST", SEARCH, { emailAddress: "not-an-address", accountNumber: "MR 1004;5521" });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({
      emailAddress: ["Please enter a valid email address."],
      accountNumber: ["Please enter a valid value into this field."],
    });
  });

  it("limits lookups per address like the registration page, so account numbers cannot be tried one after another", async () => {
    const record = await printRecord();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS; i++)
      statuses.push((await api(guest(), "POST", SEARCH, { emailAddress: record.email, accountNumber: `MR0000000${i}` })).status);
    expect(statuses).toEqual(Array(PER_ADDRESS).fill(404));
    // Even the right number is refused now.
    const limited = await api(guest(), "POST", SEARCH, { emailAddress: record.email, accountNumber: record.accountNumber });
    expect(limited.status).toBe(429);
    expect(limited.json.code).toBe("too_many_attempts");
    expect(Number(limited.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The page's own lookup shares the limit.
    const page = await guest().request("/subscriber-registration", {
      form: { emailAddress: record.email, accountNumber: record.accountNumber, password: PASSWORD },
    });
    expect(page.status).toBe(429);
    expect(await accountsWith(record.email)).toBe(0);
  });
});

describe("POST /api/user/subscriber/register", () => {
  const REGISTER = "/api/user/subscriber/register";

  it("opens the subscriber's account, signs them in and says so in its header, echoing the client's id", async () => {
    const record = await printRecord({ subscriptionCode: "PRINT-BETTER" });
    const reader = guest();
    const made = await api(reader, "POST", REGISTER, {
      emailAddress: record.email,
      accountNumber: record.accountNumber,
      password: PASSWORD,
      optIn: "on",
      id: "3f2a9c1e-77b4-4c1d",
    });
    expect(made.status).toBe(201);
    expect(made.res.headers.get("X-Subscriber-Registration")).toBe("success");
    expect(made.res.headers.get("X-Registration-Id")).toBe("3f2a9c1e-77b4-4c1d");
    expect(made.json).toMatchObject({ name: "Ines Achterberg", email: record.email, subscriber: { tier: "Better" } });
    expect(made.json.subscriber).toMatchObject({ accessEnd: expect.stringMatching(/^2099-06-30T23:59:59/) as unknown });

    const profile = await api(reader, "GET", "/service/user/profile");
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({ id: made.json.id, email: record.email, optIn: true, subscriber: { tier: "Better" } });
  });

  it("refuses with the failed header and the id on every answer: no subscription, a taken address, bad input", async () => {
    const record = await printRecord();
    const body = { emailAddress: record.email, accountNumber: record.accountNumber, password: PASSWORD, id: "attempt-0001" };

    const none = await api(guest(), "POST", REGISTER, { ...body, accountNumber: "MR00000000" });
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ code: "no_active_subscription", message: NO_ACTIVE });
    expect(none.res.headers.get("X-Subscriber-Registration")).toBe("failed");
    expect(none.res.headers.get("X-Registration-Id")).toBe("attempt-0001");
    expect(none.res.headers.getSetCookie().some((c) => c.startsWith("mr_session="))).toBe(false);
    expect(await accountsWith(record.email)).toBe(0);

    expect((await api(guest(), "POST", REGISTER, body)).status).toBe(201);
    const taken = await api(guest(), "POST", REGISTER, { ...body, id: "attempt-0002" });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "taken", message: UNAVAILABLE, fields: { emailAddress: [UNAVAILABLE] } });
    expect(taken.res.headers.get("X-Subscriber-Registration")).toBe("failed");
    expect(taken.res.headers.get("X-Registration-Id")).toBe("attempt-0002");
    expect(await accountsWith(record.email)).toBe(1);

    const weak = await api(guest(), "POST", REGISTER, { ...body, password: "short", id: "attempt-0003" });
    expect(weak.status).toBe(400);
    expect(Object.keys(weak.json.fields!)).toEqual(["password"]);
    expect(weak.res.headers.get("X-Subscriber-Registration")).toBe("failed");
    expect(weak.res.headers.get("X-Registration-Id")).toBe("attempt-0003");

    // An id that is not one is refused, and not echoed.
    for (const id of [undefined, "short", "has spaces in it", "x".repeat(65)]) {
      const refused = await api(guest(), "POST", REGISTER, { ...body, id });
      expect(refused.status).toBe(400);
      expect(refused.json.fields?.id).toEqual([id === undefined ? REQUIRED : "Please enter a valid value into this field."]);
      expect(refused.res.headers.get("X-Subscriber-Registration")).toBe("failed");
      expect(refused.res.headers.get("X-Registration-Id")).toBeNull();
    }
  });

  it("shares the lookup's rate limit, answering 429 with the failed header", async () => {
    const record = await printRecord();
    for (let i = 0; i < PER_ADDRESS; i++)
      await api(guest(), "POST", "/api/user/subscriber/search", { emailAddress: record.email, accountNumber: `MR1000000${i}` });
    const limited = await api(guest(), "POST", REGISTER, {
      emailAddress: record.email,
      accountNumber: record.accountNumber,
      password: PASSWORD,
      id: "attempt-limited",
    });
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get("X-Subscriber-Registration")).toBe("failed");
    expect(limited.res.headers.get("X-Registration-Id")).toBe("attempt-limited");
    expect(Number(limited.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await accountsWith(record.email)).toBe(0);
  });
});

describe("POST /api/user/subscribe", () => {
  const SUBSCRIBE = "/api/user/subscribe";

  it("connects an existing account's subscription once its address is confirmed, and signs the caller in", async () => {
    const email = uniqueEmail("existing");
    await webAccount(email);
    const record = await printRecord({ email, subscriptionCode: "PRINT-GOOD" });
    const body = { emailAddress: email, accountNumber: record.accountNumber, password: PASSWORD, optIn: "on" };

    const client = guest();
    const unverified = await api(client, "POST", SUBSCRIBE, body);
    expect(unverified.status).toBe(202);
    expect(unverified.json.code).toBe("verify_email");
    expect(unverified.json.message).toContain(email);
    expect(client.cookie("mr_session")).toBeUndefined();
    expect(await grants(`print:${record.accountNumber}`)).toBe(0);

    await confirmAddress(email);
    const linked = await api(client, "POST", SUBSCRIBE, body);
    expect(linked.status).toBe(200);
    expect(linked.json).toMatchObject({ email, subscriber: { tier: "Good", accessEnd: expect.stringMatching(/^2099-06-30/) as unknown } });
    const profile = await api(client, "GET", "/service/user/profile");
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({ email, optIn: true, subscriber: { tier: "Good" } });

    // Again: nothing more is granted.
    expect((await api(guest(), "POST", SUBSCRIBE, body)).status).toBe(200);
    expect(await grants(`print:${record.accountNumber}`)).toBe(1);
  });

  it("checks the password as sign-in does: invalid with tries left, then locked", async () => {
    const email = uniqueEmail("guessed");
    await webAccount(email);
    const record = await printRecord({ email });
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await api(guest(), "POST", SUBSCRIBE, { emailAddress: email, accountNumber: record.accountNumber, password: `Wrong${i}!pass` }),
      );
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 423]);
    expect(answers.slice(0, 4).map((a) => a.json.tries_left)).toEqual([4, 3, 2, 1]);
    expect(answers[0]!.json).toMatchObject({ code: "invalid_credentials", message: `${INVALID} You have 4 tries left.` });
    expect(answers[1]!.json.message).toBe(`${INVALID} You have 3 tries left.`);
    expect(answers[4]!.json).toMatchObject({ code: "locked", lockout_duration: expect.any(Number) as unknown });
    // The lock holds for /authenticate too: one lockout.
    const signIn = await api(guest(), "POST", "/authenticate", { username: email, password: PASSWORD });
    expect(signIn.status).toBe(423);
    expect(await grants(`print:${record.accountNumber}`)).toBe(0);
  });

  it("answers 404 for a subscription recorded under another address, and connects nothing", async () => {
    const email = uniqueEmail("claimant");
    await webAccount(email);
    const someoneElses = await printRecord();
    const client = guest();
    const refused = await api(client, "POST", SUBSCRIBE, {
      emailAddress: email,
      accountNumber: someoneElses.accountNumber,
      password: PASSWORD,
    });
    expect(refused.status).toBe(404);
    expect(refused.json).toEqual({ code: "no_active_subscription", message: NO_ACTIVE });
    expect(client.cookie("mr_session")).toBeUndefined();
    const search = await api(guest(), "POST", "/api/user/subscriber/search", {
      emailAddress: someoneElses.email,
      accountNumber: someoneElses.accountNumber,
    });
    expect(search.json.new).toBe(true);
  });

  it("answers 401 for an address with no account, and 400 for bad input", async () => {
    const record = await printRecord();
    const noAccount = await api(guest(), "POST", SUBSCRIBE, {
      emailAddress: record.email,
      accountNumber: record.accountNumber,
      password: PASSWORD,
    });
    expect(noAccount.status).toBe(401);
    expect(noAccount.json.code).toBe("invalid_credentials");
    const bad = await api(guest(), "POST", SUBSCRIBE, { emailAddress: "nobody", accountNumber: "", optIn: "yes" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields!).sort()).toEqual(["accountNumber", "emailAddress", "optIn", "password"]);
  });
});

describe("GET /service/user/userRef", () => {
  it("answers the signed-in reader's references, and 401 JSON to nobody", async () => {
    const signedOut = await api(guest(), "GET", "/service/user/userRef");
    expect(signedOut.status).toBe(401);
    expect(signedOut.json.code).toBe("not_signed_in");

    const reader = await registeredReader(server.url);
    const ref = await api(reader, "GET", "/service/user/userRef");
    expect(ref.status).toBe(200);
    const profile = await api(reader, "GET", "/service/user/profile");
    expect(ref.json).toEqual({ userRef: profile.json.email, guid: profile.json.id });
    // The provider's checkout page names the same customer.
    const checkout = await reader.request("/subscriptions/checkout?plan=digital", { form: { countryCode: "GB" } });
    const payPage = await reader.page(new URL(checkout.headers.get("location")!, server.url).pathname);
    expect(payPage("main").text()).toContain(`Receipt to ${ref.json.userRef as string}`);
  });
});

describe("checkoutComplete and transactionComplete", () => {
  const COMPLETE = "/api/user/subscribe/checkoutComplete";
  const TRANSACTION = "/api/digitaldata/piano/transactionComplete";
  const transaction = (reader: Reader, uid: string) =>
    contract.call(reader, "GET", TRANSACTION, { path: `${TRANSACTION}?uid=${encodeURIComponent(uid)}` });

  /** A reader's Digital checkout, left at the provider's payment page; answers its id and that page. */
  async function startedCheckout(reader: Reader): Promise<{ id: string; payPage: string }> {
    const started = await reader.request("/subscriptions/checkout?plan=digital", { form: { countryCode: "GB" } });
    expect(started.status).toBe(303);
    const guid = (await api(reader, "GET", "/service/user/userRef")).json.guid as string;
    const row = await database
      .selectFrom("subscription_checkout")
      .select("id")
      .where("user_id", "=", guid)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    return { id: row.id, payPage: new URL(started.headers.get("location")!, server.url).pathname };
  }

  /** Pays at the sandbox provider, whose completion callback then goes astray: only the provider knows. */
  async function paidUnnoticed(reader: Reader, checkout: { id: string; payPage: string }): Promise<void> {
    expect((await reader.request(checkout.payPage, { form: { cardNumber: "4242 4242 4242 4242" } })).status).toBe(303);
    await database.deleteFrom("subscription").where("reference", "=", checkout.id).execute();
    await database
      .updateTable("subscription_checkout")
      .set({ status: "created", activated_at: null })
      .where("id", "=", checkout.id)
      .execute();
  }

  it("is pending until paid, then confirms the payment with the provider and grants once, however often it is called", async () => {
    const reader = await registeredReader(server.url);
    const checkout = await startedCheckout(reader);

    const unpaid = await api(reader, "POST", COMPLETE, { checkoutId: checkout.id });
    expect(unpaid.status).toBe(200);
    expect(unpaid.json).toEqual({ status: "pending", subscriber: null, uid: checkout.id });
    expect((await transaction(reader, checkout.id)).status).toBe(404);

    await paidUnnoticed(reader, checkout);
    const answers = await Promise.all([1, 2, 3].map(() => api(reader, "POST", COMPLETE, { checkoutId: checkout.id })));
    for (const done of answers) {
      expect(done.status).toBe(200);
      expect(done.json).toMatchObject({ status: "active", subscriber: { tier: "Good" }, uid: checkout.id });
    }
    expect((await api(reader, "POST", COMPLETE, { checkoutId: checkout.id })).json.status).toBe("active");
    expect(await grants(checkout.id)).toBe(1);
    expect((await api(reader, "GET", "/service/user/profile")).json.subscriber).toMatchObject({ tier: "Good" });

    const data = await transaction(reader, answers[0]!.json.uid as string);
    expect(data.status).toBe(200);
    expect(data.json).toMatchObject({
      transactionId: checkout.id,
      plan: "Digital",
      planId: "digital",
      tier: "Good",
      term: "month",
      price: 12,
      currency: "USD",
    });
    expect(Date.parse(data.json.date as string)).not.toBeNaN();
  });

  it("answers 404 for another reader's checkout or transaction, and changes nothing", async () => {
    const owner = await registeredReader(server.url);
    const checkout = await startedCheckout(owner);
    await paidUnnoticed(owner, checkout);
    const other = await registeredReader(server.url);

    const foreign = await api(other, "POST", COMPLETE, { checkoutId: checkout.id });
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe("no_such_checkout");
    expect(await grants(checkout.id)).toBe(0);
    expect((await api(other, "GET", "/service/user/profile")).json.subscriber).toBeNull();

    expect((await api(owner, "POST", COMPLETE, { checkoutId: checkout.id })).json.status).toBe("active");
    for (const uid of [checkout.id, "chk_unknownunknownunknownu", "anything"]) {
      const refused = await transaction(other, uid);
      expect(refused.status, uid).toBe(404);
      expect(refused.json.code).toBe("no_such_transaction");
    }
    expect((await api(other, "POST", COMPLETE, { checkoutId: "chk_unknownunknownunknownu" })).status).toBe(404);
  });

  it("needs a signed-in reader (401 JSON, no redirect) and a checkout id", async () => {
    for (const answer of [await api(guest(), "POST", COMPLETE, { checkoutId: "chk_x" }), await transaction(guest(), "chk_x")]) {
      expect(answer.status).toBe(401);
      expect(answer.res.headers.get("location")).toBeNull();
      expect(answer.json.code).toBe("not_signed_in");
    }
    const reader = await registeredReader(server.url);
    const missing = await api(reader, "POST", COMPLETE, {});
    expect(missing.status).toBe(400);
    expect(missing.json.fields).toEqual({ checkoutId: [REQUIRED] });
    const noUid = await contract.call<ApiBody>(reader, "GET", TRANSACTION);
    expect(noUid.status).toBe(400);
    expect(noUid.json.fields).toEqual({ uid: [REQUIRED] });
  });
});
