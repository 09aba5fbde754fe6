import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { follow } from "~/server/library/follows";
import type { ApiAnswer, ApiBody, ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import type { RunningServer } from "~/tests/helpers/server";
import { hasSubject, RESET_SUBJECT, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// The auth-user group of the service API (spec 7: authenticate, logout, user/profile, password,
// forgot and reset password, register) against the production build and a real database. Each
// answer is checked against the published OpenAPI document; the rules (rate limits, captcha,
// lockouts, the spec's messages) are the pages' own, so the same limits and wording show here.

const PASSWORD = "Lantern5!quay";
const NEW_PASSWORD = "Beacon8!shore";
const INVALID = "You have entered an invalid email and password combination. Please try again.";
const RESTRICTED = "We're having trouble verifying your account. Please contact our Customer Service team for assistance.";
const UNAVAILABLE = "That username is unavailable. Sign in or choose another email address.";
const RESET_SENT = "If your email is registered with us, you will receive an email with a link to reset your password.";
const RESET_LOCKED = "You cannot unlock your account by resetting the password. Please wait 24 hours to unlock and try again.";
const PASSWORD_RULE =
  "Passwords must meet the following criteria: must have at least one number, one lower case letter, one upper case letter, and one special character (@ ! # $ % ^ & + =), no spaces, and be at least 8 characters long";

let site: ApiSite;
let server: RunningServer;
let contract: ApiContract;
let smtp: LoopbackSmtp;
let database: Database;
let counter = 0;
let ipCounter = 10;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  site = await startApiSite("apiauth", {
    SMTP_URL: smtp.url,
    CLIENT_IP_HEADER: "x-forwarded-for",
    RATE_LIMIT_PER_IP: "8",
    RATE_LIMIT_PER_ACCOUNT: "1000",
    // Short locks, so three of them (the day-long lock) fit in a test.
    LOGIN_LOCKOUT_SECONDS: "1",
  });
  ({ server, contract, database } = site);
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

const uniqueEmail = (label: string) => `${label}.${++counter}.${process.pid}.${Date.now()}@example.org`;
/** Each test calls from its own client address, so only the rate-limit test meets the per-address limit. */
const newClientIp = () => {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

/** A reader that sends its own client address (X-Forwarded-For) on every request. */
class Caller extends Reader {
  private readonly ip = newClientIp();

  constructor() {
    super(server.url);
  }

  override request(path: string, init: NonNullable<Parameters<Reader["request"]>[1]> = {}): Promise<Response> {
    return super.request(path, { ...init, headers: { "X-Forwarded-For": this.ip, ...init.headers } });
  }
}

/** POST /authenticate with a username and password, checked against the document. */
const signIn = (client: Reader, username: string, password: string) =>
  contract.call(client, "POST", "/authenticate", { body: { username, password } });

/** A reader registered through the API, signed in. */
async function registered(label = "reader"): Promise<{ client: Caller; email: string; id: string }> {
  const client = new Caller();
  const email = uniqueEmail(label);
  const { status, json } = await contract.call(client, "POST", "/api/user/register", {
    body: { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD, deviceType: "WEB_SITE" },
  });
  expect(status).toBe(201);
  return { client, email, id: json.id as string };
}

async function mailedResetToken(email: string): Promise<string> {
  const mail = await smtp.waitFor((m) => m.rcptTo.includes(email) && hasSubject(m, RESET_SUBJECT));
  const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return new URL(body.match(/https?:\/\/\S+\/reset-password\?token=[\w%-]+/)![0]).searchParams.get("token")!;
}

const restrict = (id: string) => database.updateTable("app_user").set({ status: "restricted" }).where("id", "=", id).execute();

describe("POST /api/user/register", () => {
  it("creates the account, signs the reader in and answers the account", async () => {
    const client = new Caller();
    const email = uniqueEmail("new");
    const { status, json, res } = await contract.call(client, "POST", "/api/user/register", {
      body: { firstName: "Ada", lastName: "Quill", emailAddress: email, password: PASSWORD, optIn: "on" },
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({ name: "Ada Quill", email });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("mr_session=") && /HttpOnly/i.test(c))).toBe(true);
    const profile = await contract.call(client, "GET", "/service/user/profile");
    expect(profile.json).toMatchObject({ id: json.id, email, firstName: "Ada", lastName: "Quill", optIn: true });
  });

  it("answers 400 with the registration form's field errors, the address in the spec's words for this call", async () => {
    const { status, json } = await contract.call(new Caller(), "POST", "/api/user/register", {
      body: { firstName: "", lastName: "Quill", emailAddress: "not-an-address", password: "weak" },
    });
    expect(status).toBe(400);
    expect(json.code).toBe("invalid_input");
    expect(json.fields).toMatchObject({
      firstName: ["This field is required."],
      emailAddress: ["Email address is not valid."],
      password: [PASSWORD_RULE],
    });
  });

  it("answers 409 with the spec's sentence for an address in use, and 403 for a restricted one", async () => {
    const { email } = await registered("taken");
    const taken = await contract.call(new Caller(), "POST", "/api/user/register", {
      body: { firstName: "Other", lastName: "Person", emailAddress: email.toUpperCase(), password: PASSWORD },
    });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "taken", message: UNAVAILABLE, fields: { emailAddress: [UNAVAILABLE] } });
    expect(taken.res.headers.getSetCookie().some((c) => c.startsWith("mr_session="))).toBe(false);

    const blocked = await contract.call(new Caller(), "POST", "/api/user/register", {
      body: { firstName: "Blocked", lastName: "Reader", emailAddress: `x${++counter}@blocked-domain.example`, password: PASSWORD },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.json).toMatchObject({ code: "user_restricted", message: RESTRICTED });
  });
});

describe("the spec's registration payload", () => {
  it("takes optIn as a JSON boolean and deviceType WEB_SITE, keeping the reader's choice", async () => {
    for (const optIn of [true, false]) {
      const client = new Caller();
      const email = uniqueEmail(`optin-${optIn}`);
      const { status } = await contract.call(client, "POST", "/api/user/register", {
        body: { firstName: "Ada", lastName: "Quill", emailAddress: email, password: PASSWORD, optIn, deviceType: "WEB_SITE" },
      });
      expect(status, `optIn ${optIn}`).toBe(201);
      expect((await contract.call(client, "GET", "/service/user/profile")).json.optIn).toBe(optIn);
    }
    // A form's ticked box still reads as yes.
    const form = new Caller();
    const res = await form.request("/api/user/register", {
      form: { firstName: "Ada", lastName: "Quill", emailAddress: uniqueEmail("optin-form"), password: PASSWORD, optIn: "on" },
    });
    expect(res.status).toBe(201);
    expect((await contract.call(form, "GET", "/service/user/profile")).json.optIn).toBe(true);
  });

  it("reads the registration page's box as before: ticked is yes, left empty is no", async () => {
    for (const ticked of [true, false]) {
      const client = new Caller();
      const res = await client.request("/register", {
        form: {
          firstName: "Ada",
          lastName: "Quill",
          emailAddress: uniqueEmail(`page-${ticked}`),
          password: PASSWORD,
          ...(ticked ? { optIn: "on" } : {}),
        },
      });
      expect(res.status).toBe(303);
      expect((await contract.call(client, "GET", "/service/user/profile")).json.optIn, `ticked ${ticked}`).toBe(ticked);
    }
  });

  it("refuses an optIn that is neither a boolean nor a ticked box with 400 and the field's error", async () => {
    const { status, json } = await contract.call(new Caller(), "POST", "/api/user/register", {
      body: { firstName: "Ada", lastName: "Quill", emailAddress: uniqueEmail("optin-bad"), password: PASSWORD, optIn: "yes" },
    });
    expect(status).toBe(400);
    expect(Object.keys(json.fields!)).toEqual(["optIn"]);
  });
});

describe("POST /service/user/register", () => {
  const SERVICE = "/service/user/register";

  it("registers and signs in as /api/user/register does, with the same refusals", async () => {
    const client = new Caller();
    const email = uniqueEmail("service");
    const made = await contract.call(client, "POST", SERVICE, {
      body: { firstName: "Ida", lastName: "Marsh", emailAddress: email, password: PASSWORD, optIn: true, deviceType: "WEB_SITE" },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: "Ida Marsh", email });
    expect((await contract.call(client, "GET", "/service/user/profile")).json).toMatchObject({ id: made.json.id, email, optIn: true });
    // The account signs in on the page too.
    expect((await signIn(new Caller(), email, PASSWORD)).status).toBe(200);

    const taken = await contract.call(new Caller(), "POST", SERVICE, {
      body: { firstName: "Ida", lastName: "Marsh", emailAddress: email, password: PASSWORD },
    });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "taken", message: UNAVAILABLE });
    const bad = await contract.call(new Caller(), "POST", SERVICE, {
      body: { firstName: "", lastName: "Marsh", emailAddress: "x", password: "weak" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.fields!).sort()).toEqual(["emailAddress", "firstName", "password"]);
    const foreign = await contract.call(new Caller(), "POST", SERVICE, {
      body: { firstName: "Ida", lastName: "Marsh", emailAddress: uniqueEmail("foreign"), password: PASSWORD },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe("cross_site");
  });
});

describe("GET /api/recaptcha/enabled", () => {
  it("is in the document, and says the captcha is off when no secret is configured", async () => {
    const { status, json } = await contract.call(new Caller(), "GET", "/api/recaptcha/enabled");
    expect(status).toBe(200);
    expect(json).toEqual({ enabled: false });
  });
});

describe("POST /authenticate", () => {
  it("signs in with JSON or a form and answers the account; the cookie opens the profile", async () => {
    const { email, id } = await registered("signin");
    const client = new Caller();
    const { status, json } = await contract.call(client, "POST", "/authenticate", {
      body: { username: email, password: PASSWORD, deviceType: "WEB_SITE" },
    });
    expect(status).toBe(200);
    expect(json).toEqual({ id, name: "Nell Ransome", email });
    expect((await contract.call(client, "GET", "/service/user/profile")).json.email).toBe(email);

    const form = await new Caller().request("/authenticate", { form: { username: email, password: PASSWORD, deviceType: "WEB_SITE" } });
    expect(form.status).toBe(200);
    expect(((await contract.check("/authenticate", "post", form)) as ApiBody).id).toBe(id);
  });

  it("answers 400 with the sign-in form's field errors", async () => {
    const { status, json } = await signIn(new Caller(), "nobody", "");
    expect(status).toBe(400);
    expect(json.fields).toMatchObject({ username: ["This field is required."], password: ["This field is required."] });
  });

  it("counts tries_left on every wrong password, the first too, in the spec's words, then locks with lockout_duration", async () => {
    const { email } = await registered("locked");
    const answers: [number, string][] = [];
    for (let i = 0; i < 4; i++) {
      const { status, json } = await signIn(new Caller(), email, "Wrong1!guess");
      expect(status).toBe(401);
      expect(json.code).toBe("invalid_credentials");
      answers.push([json.tries_left as number, json.message!]);
    }
    expect(answers).toEqual([
      [4, `${INVALID} You have 4 tries left.`],
      [3, `${INVALID} You have 3 tries left.`],
      [2, `${INVALID} You have 2 tries left.`],
      [1, `${INVALID} You have 1 try left.`],
    ]);
    // The last try sets the lock (the day-long lock below shows the right password refused too).
    const locked = await signIn(new Caller(), email, "Wrong1!guess");
    expect(locked.status).toBe(423);
    expect(locked.json).toMatchObject({ code: "locked", lockout_duration: 1 });
    expect(locked.json.message).toBe(
      "Your account is blocked, please wait 1 second to unlock and try again. For immediate assistance, please contact Customer Service.",
    );
  });

  it("answers 403 user_restricted for a restricted account, and a wrong password for an unknown one", async () => {
    const { email, id } = await registered("restricted");
    await restrict(id);
    const restricted = await signIn(new Caller(), email, PASSWORD);
    expect(restricted.status).toBe(403);
    expect(restricted.json).toMatchObject({ code: "user_restricted", message: RESTRICTED });
    const unknown = await signIn(new Caller(), uniqueEmail("nobody"), PASSWORD);
    expect(unknown.status).toBe(401);
    expect(unknown.json.message).toBe(`${INVALID} You have 4 tries left.`);
  });

  it("applies the sign-in page's per-address limit: 429 with Retry-After", async () => {
    const client = new Caller();
    let last: ApiAnswer | undefined;
    for (let i = 0; i < 9; i++) last = await signIn(client, uniqueEmail("limit"), PASSWORD);
    expect(last!.status).toBe(429);
    expect(last!.json.code).toBe("too_many_attempts");
    expect(Number(last!.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The page shares the limit: the same address is refused there too.
    const page = await client.request("/sign-in", { form: { username: uniqueEmail("limit"), password: PASSWORD } });
    expect(page.status).toBe(429);
  });
});

describe("HEAD, GET and POST /service/user/profile", () => {
  it("answers 401 signed out (HEAD with no body), 200 signed in", async () => {
    const guest = new Caller();
    expect((await contract.call(guest, "GET", "/service/user/profile")).json.code).toBe("not_signed_in");
    const head = await contract.call(guest, "HEAD", "/service/user/profile");
    expect([head.status, await head.res.text()]).toEqual([401, ""]);
    const { client } = await registered("head");
    const signedIn = await contract.call(client, "HEAD", "/service/user/profile");
    expect([signedIn.status, await signedIn.res.text()]).toEqual([200, ""]);
  });

  it("gives the reader's own newsletters, topics and campaigns, never another reader's", async () => {
    const a = await registered("follower");
    const b = await registered("other");
    const topic = await database.selectFrom("topic").select(["id", "name"]).orderBy("id").executeTakeFirstOrThrow();
    const newsletter = await database
      .selectFrom("newsletter")
      .select(["slug", "name"])
      .where("subscriber_only", "=", 0)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const campaign = await database.selectFrom("marketing_campaign").select(["id", "name"]).orderBy("id").executeTakeFirstOrThrow();
    await follow(database, a.id, "topic", String(topic.id));
    await follow(database, a.id, "newsletter", newsletter.slug);
    await follow(database, a.id, "campaign", campaign.id);

    const mine = await contract.call(a.client, "GET", "/service/user/profile");
    expect(mine.json).toMatchObject({
      id: a.id,
      email: a.email,
      firstName: "Nell",
      lastName: "Ransome",
      pendingEmail: null,
      attributes: { industry: "", jobTitle: "", companySize: "" },
      newsletters: [{ slug: newsletter.slug, name: newsletter.name }],
      following: [{ id: topic.id, name: topic.name }],
      marketingCampaigns: [{ id: campaign.id, name: campaign.name }],
      subscriber: null,
    });
    expect(mine.res.headers.get("Cache-Control")).toContain("no-store");
    const theirs = await contract.call(b.client, "GET", "/service/user/profile");
    expect(theirs.json).toMatchObject({ id: b.id, email: b.email, newsletters: [], following: [], marketingCampaigns: [] });
  });

  it("saves the profile as my account does, with its field errors and its current-password rule", async () => {
    const a = await registered("profile");
    const b = await registered("neighbour");
    const saved = await contract.call(a.client, "POST", "/service/user/profile", {
      body: { displayName: "Nell R", emailAddress: a.email, industry: "Media", jobTitle: "Analyst", companySize: "5 to 99" },
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      displayName: "Nell R",
      attributes: { industry: "Media", jobTitle: "Analyst", companySize: "5 to 99" },
    });
    expect((await contract.call(a.client, "GET", "/service/user/profile")).json.displayName).toBe("Nell R");
    // The page shows what the API saved.
    expect(await (await a.client.request("/my-account")).text()).toContain("Nell R");

    const bad = await contract.call(a.client, "POST", "/service/user/profile", { body: { emailAddress: a.email, industry: "Piracy" } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ industry: ["Please select a valid value"] });

    const noPassword = await contract.call(a.client, "POST", "/service/user/profile", { body: { emailAddress: uniqueEmail("moved") } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.json.fields).toEqual({ currentPassword: ["Current Password is required"] });

    // Another reader's address is refused and theirs is untouched.
    const theirs = await contract.call(a.client, "POST", "/service/user/profile", {
      body: { emailAddress: b.email, currentPassword: PASSWORD },
    });
    expect(theirs.status).toBe(409);
    expect(theirs.json).toMatchObject({ code: "taken", message: UNAVAILABLE });
    expect((await contract.call(b.client, "GET", "/service/user/profile")).json.email).toBe(b.email);

    const moved = uniqueEmail("moved");
    const pending = await contract.call(a.client, "POST", "/service/user/profile", {
      body: { emailAddress: moved, currentPassword: PASSWORD },
    });
    expect(pending.status).toBe(200);
    expect(pending.json).toMatchObject({ email: a.email, pendingEmail: moved });
    await smtp.waitFor((m) => m.rcptTo.includes(moved));
  });

  it("answers 401 to a signed-out save and changes nothing", async () => {
    const { status, json } = await contract.call(new Caller(), "POST", "/service/user/profile", {
      body: { emailAddress: "x@example.org", displayName: "X" },
    });
    expect(status).toBe(401);
    expect(json.code).toBe("not_signed_in");
  });
});

describe("GET and POST /service/user/attributes", () => {
  const ATTRIBUTES = "/service/user/attributes";
  const attributesOf = async (reader: Reader) => (await contract.call(reader, "GET", ATTRIBUTES)).json;

  it("answers the reader's attributes, and saves them as my account does", async () => {
    const reader = await registeredReader(server.url);
    expect(await attributesOf(reader)).toEqual({ industry: "", jobTitle: "", companySize: "" });

    const chosen = { industry: "Food & Beverage", jobTitle: "Retired", companySize: "10000+" };
    const saved = await contract.call(reader, "POST", ATTRIBUTES, { body: chosen });
    expect([saved.status, saved.json]).toEqual([200, chosen]);
    expect(saved.res.headers.get("Cache-Control")).toContain("no-store");
    expect(await attributesOf(reader)).toEqual(chosen);
    expect((await contract.call(reader, "GET", "/service/user/profile")).json).toMatchObject({ displayName: "", attributes: chosen });
    // The my-account form shows what the API saved.
    const $ = await reader.page("/my-account");
    expect([$("select[name=industry]").val(), $("select[name=jobTitle]").val(), $("select[name=companySize]").val()]).toEqual([
      chosen.industry,
      chosen.jobTitle,
      chosen.companySize,
    ]);

    // As on the form, an attribute left out is cleared.
    const cleared = await contract.call(reader, "POST", ATTRIBUTES, { body: { industry: "Media" } });
    expect(cleared.json).toEqual({ industry: "Media", jobTitle: "", companySize: "" });
  });

  it("answers 400 with the my-account form's field errors and changes nothing", async () => {
    const reader = await registeredReader(server.url);
    const chosen = { industry: "Media", jobTitle: "Analyst", companySize: "1 to 4" };
    await contract.call(reader, "POST", ATTRIBUTES, { body: chosen });
    const bad = await contract.call(reader, "POST", ATTRIBUTES, { body: { industry: "Piracy", jobTitle: "Analyst", companySize: 12 } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ industry: ["Please select a valid value"], companySize: ["Please select a valid value"] });
    expect(await attributesOf(reader)).toEqual(chosen);
  });

  it("answers 401 JSON signed out, to a read and a save, and saves nothing", async () => {
    const guest = new Reader(server.url);
    for (const method of ["GET", "POST"]) {
      const { status, json, res } = await contract.call(
        guest,
        method,
        ATTRIBUTES,
        method === "POST" ? { body: { industry: "Media" } } : {},
      );
      expect([status, json.code, res.headers.get("location")], method).toEqual([401, "not_signed_in", null]);
    }
  });
});

describe("POST /service/user/migrate", () => {
  const MIGRATE = "/service/user/migrate";
  const HARDCOVER = 1001; // seed catalogue: The Patient Ledger, HBK
  const EBOOK = 1002; // the same, KND

  /** A browser that shopped as a guest: its cart cookie, and what the cart holds. */
  async function guestWithCart(): Promise<Reader> {
    const guest = new Reader(server.url);
    const res = await guest.request("/api/shopping-cart", {
      json: [
        { productId: HARDCOVER, type: "Ship", quantity: 2 },
        { productId: EBOOK, type: "Digital", quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(guest.cookie("mr_cart")).toBeDefined();
    return guest;
  }

  const cartOf = async (reader: Reader) => {
    const { json } = await contract.call<{ lines: { availabilityId: number; quantity: number }[] }>(reader, "GET", "/api/shopping-cart");
    return Object.fromEntries(json.lines.map((l) => [l.availabilityId, l.quantity]));
  };

  it("moves this browser's guest cart into the reader's cart once; a second call moves nothing and says so", async () => {
    const guest = await guestWithCart();
    const reader = await registeredReader(server.url);
    await reader.request("/api/shopping-cart", { json: [{ productId: HARDCOVER, type: "Ship", quantity: 1 }] });
    reader.setCookie("mr_cart", guest.cookie("mr_cart")!);

    const first = await contract.call(reader, "POST", MIGRATE);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ cartLines: 2, message: "2 items from this browser's guest cart moved into your cart." });
    expect(await cartOf(reader)).toEqual({ [HARDCOVER]: 3, [EBOOK]: 1 });
    // The guest cart is gone: the browser that made it has none left.
    expect(await cartOf(guest)).toEqual({});

    const second = await contract.call(reader, "POST", MIGRATE);
    expect(second.json).toEqual({ cartLines: 0, message: "Nothing to carry over: this browser holds no guest cart." });
    expect(await cartOf(reader)).toEqual({ [HARDCOVER]: 3, [EBOOK]: 1 });
  });

  it("moves nothing from a cart cookie that is not this browser's guest cart: forged, or another reader's", async () => {
    const other = await registeredReader(server.url);
    await other.request("/api/shopping-cart", { json: [{ productId: EBOOK, type: "Digital", quantity: 1 }] });
    const otherCart = await database
      .selectFrom("cart")
      .innerJoin("app_user", "app_user.id", "cart.user_id")
      .select("cart.id")
      .where("app_user.email", "=", (await contract.call(other, "GET", "/service/user/profile")).json.email as string)
      .executeTakeFirstOrThrow();
    const guestCookie = (await guestWithCart()).cookie("mr_cart")!;

    const reader = await registeredReader(server.url);
    for (const cookie of [otherCart.id, guestCookie.replace(/^[^.]+/, otherCart.id), "garbage"]) {
      reader.setCookie("mr_cart", cookie);
      const { status, json } = await contract.call(reader, "POST", MIGRATE);
      expect([status, json.cartLines], cookie).toEqual([200, 0]);
    }
    expect(await cartOf(reader)).toEqual({});
    expect(await cartOf(other)).toEqual({ [EBOOK]: 1 });
  });

  it("answers 401 JSON signed out and leaves the guest cart where it is", async () => {
    const guest = await guestWithCart();
    const { status, json, res } = await contract.call(guest, "POST", MIGRATE);
    expect([status, json.code, res.headers.get("location")]).toEqual([401, "not_signed_in", null]);
    expect(await cartOf(guest)).toEqual({ [HARDCOVER]: 2, [EBOOK]: 1 });
  });
});

describe("POST /service/user/password", () => {
  it("changes the password: this session stays, the reader's others end", async () => {
    const { client, email } = await registered("changer");
    const other = new Caller();
    expect((await signIn(other, email, PASSWORD)).status).toBe(200);
    const { status, json } = await contract.call(client, "POST", "/service/user/password", {
      body: { current: PASSWORD, password: NEW_PASSWORD },
    });
    expect(status).toBe(200);
    expect(json.message).toBe("Password successfully changed.");
    expect((await contract.call(client, "GET", "/service/user/profile")).status).toBe(200);
    expect((await contract.call(other, "GET", "/service/user/profile")).status).toBe(401);
    expect((await signIn(new Caller(), email, NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(new Caller(), email, PASSWORD)).status).toBe(401);
  });

  it("answers the spec's 'Current Password is invalid' and the form's password rule", async () => {
    const { client, email } = await registered("wrongcurrent");
    const wrong = await contract.call(client, "POST", "/service/user/password", {
      body: { current: "Nope1!nope", password: NEW_PASSWORD },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: "current_password_invalid", message: "Current Password is invalid" });
    expect(wrong.json.fields).toEqual({ current: ["Current Password is invalid"] });
    const weak = await contract.call(client, "POST", "/service/user/password", { body: { current: PASSWORD, password: "weak" } });
    expect(weak.status).toBe(400);
    expect(weak.json.fields).toEqual({ password: [PASSWORD_RULE] });
    const missing = await contract.call(client, "POST", "/service/user/password", { body: {} });
    expect(missing.json.fields).toMatchObject({ current: ["Current Password is required"], password: ["New Password is required"] });
    // Nothing changed.
    expect((await signIn(new Caller(), email, PASSWORD)).status).toBe(200);
  });

  it("answers 401 signed out", async () => {
    const { status } = await contract.call(new Caller(), "POST", "/service/user/password", {
      body: { current: PASSWORD, password: NEW_PASSWORD },
    });
    expect(status).toBe(401);
  });
});

describe("forgot and reset password", () => {
  for (const [path, field] of [
    ["/service/user/forgot-password", "email"],
    ["/api/user/forgotpassword", "emailAddress"],
  ] as const) {
    it(`${path}: always the spec's sentence, and a link only to an account's address`, async () => {
      const { email } = await registered("forgot");
      const known = await contract.call(new Caller(), "POST", path, { body: { [field]: email, deviceType: "WEB_SITE" } });
      expect(known.status).toBe(200);
      expect(known.json).toEqual({ message: RESET_SENT });
      expect(await mailedResetToken(email)).toBeTruthy();
      const unknown = await contract.call(new Caller(), "POST", path, { body: { [field]: uniqueEmail("stranger") } });
      expect(unknown.json).toEqual({ message: RESET_SENT });
      const bad = await contract.call(new Caller(), "POST", path, { body: { [field]: "nope" } });
      expect(bad.status).toBe(400);
      expect(bad.json.fields).toEqual({ [field]: ["Please enter a valid email address."] });
    });
  }

  it("answers 403 for a restricted account and 423 for a day-locked one", async () => {
    const restricted = await registered("forgotrestricted");
    await restrict(restricted.id);
    const refused = await contract.call(new Caller(), "POST", "/service/user/forgot-password", { body: { email: restricted.email } });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "user_restricted", message: RESTRICTED });

    const { email } = await registered("hammered");
    for (let lockout = 0; lockout < 3; lockout++) {
      for (let i = 0; i < 5; i++) await new Caller().request("/authenticate", { json: { username: email, password: "Guess1!password" } });
      if (lockout < 2) await new Promise((r) => setTimeout(r, 1100));
    }
    const locked = await signIn(new Caller(), email, PASSWORD);
    expect(locked.status).toBe(423);
    // A day, less the seconds since the third lockout began (a loaded machine may take a few).
    expect(locked.json.lockout_duration).toBeGreaterThan(86_400 - 60);
    expect(locked.json.lockout_duration).toBeLessThanOrEqual(86_400);
    const day = await contract.call(new Caller(), "POST", "/api/user/forgotpassword", { body: { emailAddress: email } });
    expect(day.status).toBe(423);
    expect(day.json).toMatchObject({ code: "locked", message: RESET_LOCKED });
  });

  it("/service/user/reset-password sets the password once with the mailed token and ends every session", async () => {
    const { client, email } = await registered("resetter");
    await contract.call(new Caller(), "POST", "/service/user/forgot-password", { body: { email } });
    const token = await mailedResetToken(email);

    const bad = await contract.call(new Caller(), "POST", "/service/user/reset-password", { body: { token, password: "weak" } });
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual({ password: [PASSWORD_RULE] });
    const noToken = await contract.call(new Caller(), "POST", "/service/user/reset-password", { body: { password: NEW_PASSWORD } });
    expect(noToken.json.fields).toEqual({ token: ["This field is required."] });

    const reset = await contract.call(client, "POST", "/service/user/reset-password", { body: { token, password: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    expect(reset.json.message).toBe("Password successfully changed.");
    expect(client.cookie("mr_session")).toBeUndefined();
    expect((await signIn(new Caller(), email, NEW_PASSWORD)).status).toBe(200);

    const again = await contract.call(new Caller(), "POST", "/service/user/reset-password", { body: { token, password: "Other9!shore" } });
    expect(again.status).toBe(410);
    expect(again.json.code).toBe("link_dead");
    const forged = await contract.call(new Caller(), "POST", "/service/user/reset-password", {
      body: { token: "a".repeat(43), password: "Other9!shore" },
    });
    expect(forged.status).toBe(410);
  });
});

describe("GET /logout", () => {
  it("signs out a request from this site and goes to the return path", async () => {
    const { client } = await registered("leaver");
    const { status, res } = await contract.call(client, "GET", "/logout", {
      path: "/logout?return=/topics",
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(status).toBe(303);
    expect(res.headers.get("Location")).toBe("/topics");
    expect(client.cookie("mr_session")).toBeUndefined();
    const old = await registered("leaver2");
    const offsite = await old.client.request("/logout?return=https://evil.example/", { headers: { "Sec-Fetch-Site": "none" } });
    expect(offsite.headers.get("Location")).toBe("/");
  });

  it("does not sign out a request another site started: it answers the confirm page", async () => {
    const { client } = await registered("stayer");
    const { status, res } = await contract.call(client, "GET", "/logout", {
      path: "/logout?return=/topics",
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("Do you want to sign out of Meridian Review?");
    expect((await contract.call(client, "GET", "/service/user/profile")).status).toBe(200);
  });
});
