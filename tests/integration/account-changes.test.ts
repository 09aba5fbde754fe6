import fs from "node:fs";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// Issue 12's account holes, tried against the production build as the issue's scripts did:
// the e-mail change, the print-subscription takeover, lapsed subscribers, the notices, the
// rate-limited current-password question and the lockout under parallel sign-ins; and what the
// subscriber registration page says.

const PASSWORD = "Lantern5!quay";
const WRONG = "Wrong5!lantern";
const USERNAME_UNAVAILABLE = "That username is unavailable. Sign in or choose another email address.";
let server: RunningServer;
let smtp: LoopbackSmtp;
let ipCounter = 10;

function newClientIp(): string {
  ipCounter += 1;
  return `203.0.113.${ipCounter}`;
}

async function post(path: string, fields: Record<string, string>, options: { cookie?: string; ip?: string } = {}) {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    "X-Forwarded-For": options.ip ?? newClientIp(),
    Origin: server.url,
  };
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(server.url + path, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" });
}

async function get(path: string, cookie?: string) {
  return fetch(server.url + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

function sessionCookie(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("mr_session="));
  if (!header) throw new Error(`no session cookie (status ${res.status})`);
  return header.split(";")[0] ?? header;
}

async function registerReader(email: string): Promise<string> {
  const res = await post("/register", { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD });
  expect(res.status).toBe(303);
  return sessionCookie(res);
}

const signIn = (email: string, password: string) => post("/sign-in", { username: email, password, redirectTo: "/" });

/** The profile form as a reader posts it, changing only what is given. */
function postProfile(cookie: string, fields: Record<string, string>) {
  return post("/my-account", { intent: "profile", displayName: "", industry: "", jobTitle: "", companySize: "", ...fields }, { cookie });
}

/** The inline error shown for a field of a form. */
async function fieldError(res: Response, form: string, field: string): Promise<string> {
  return cheerio
    .load(await res.text())(`#${form}-${field}-error`)
    .text();
}

async function accountEmail(cookie: string): Promise<string | undefined> {
  const page = cheerio.load(await (await get("/my-account", cookie)).text());
  return page("input[name=emailAddress]").attr("value");
}

/** Waits for the message to `to` whose subject matches (the loopback SMTP server keeps them). */
async function mailTo(to: string, subject: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = smtp.received.find((m) => m.rcptTo.includes(to) && subject.test(m.raw));
    if (mail) return plainText(mail.raw);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

const mailCount = (to: string) => smtp.received.filter((m) => m.rcptTo.includes(to)).length;

function confirmToken(text: string): string {
  const link = new URL(text.match(/https?:\/\/\S+\/confirm-email\?token=[\w%-]+/)![0]);
  expect(link.origin).toBe(server.url);
  return link.searchParams.get("token")!;
}

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer({
    SMTP_URL: smtp.url,
    CLIENT_IP_HEADER: "x-forwarded-for",
    RATE_LIMIT_PER_IP: "1000",
    RATE_LIMIT_PER_ACCOUNT: "100",
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("changing the e-mail address", () => {
  it("asks for the current password, with an inline error when it is missing or wrong", async () => {
    const cookie = await registerReader("asks.password@example.org");
    const missing = await postProfile(cookie, { emailAddress: "asked.new@example.org" });
    expect(missing.status).toBe(400);
    expect(await fieldError(missing, "profile", "currentPassword")).toBe("Current Password is required");
    const wrong = await postProfile(cookie, { emailAddress: "asked.new@example.org", currentPassword: WRONG });
    expect(wrong.status).toBe(400);
    expect(await fieldError(wrong, "profile", "currentPassword")).toBe("Current Password is invalid");
    expect(await accountEmail(cookie)).toBe("asks.password@example.org");
    expect(mailCount("asked.new@example.org")).toBe(0);
  });

  it("takes effect only from the single-use link mailed to the new address, and tells the old one", async () => {
    const cookie = await registerReader("old.address@example.org");
    const res = await postProfile(cookie, { emailAddress: "New.Address@example.org", currentPassword: PASSWORD, displayName: "Nell R" });
    expect(res.status).toBe(303);
    const page = cheerio.load(await (await get(res.headers.get("location")!, cookie)).text());
    expect(page("[role=status]").text()).toContain("We have sent a link to new.address@example.org.");
    expect(page("input[name=emailAddress]").attr("value")).toBe("old.address@example.org");
    expect(page("input[name=displayName]").attr("value")).toBe("Nell R");

    const token = confirmToken(await mailTo("new.address@example.org", /Confirm your new/));
    // Opening the link (as a mail scanner would) shows a button and changes nothing.
    const confirmPage = cheerio.load(await (await get(`/confirm-email?token=${encodeURIComponent(token)}`)).text());
    expect(confirmPage("form[method=post] button[type=submit]").text()).toBe("Confirm Email Address");
    expect(confirmPage("main").text()).toContain("new.address@example.org");
    expect(await accountEmail(cookie)).toBe("old.address@example.org");

    const confirmed = await post("/confirm-email", { token });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/confirm-email?done=changed");
    expect(
      cheerio
        .load(await (await get("/confirm-email?done=changed")).text())("[role=status]")
        .text(),
    ).toContain("Your email address has been changed.");
    expect(await accountEmail(cookie)).toBe("new.address@example.org");
    const notice = await mailTo("old.address@example.org", /email address was changed/);
    expect(notice).toContain("changed from old.address@example.org to new.address@example.org");
    expect(notice).toContain("If you did not make this change");

    expect((await signIn("new.address@example.org", PASSWORD)).status).toBe(303);
    expect((await signIn("old.address@example.org", PASSWORD)).status).toBe(401);

    // A second use of the link says it is spent.
    const again = await post("/confirm-email", { token });
    expect(again.status).toBe(410);
    expect(
      cheerio
        .load(await again.text())("[role=alert]")
        .text(),
    ).toContain("This confirmation link has expired or has already been used.");
    const reopened = cheerio.load(await (await get(`/confirm-email?token=${encodeURIComponent(token)}`)).text());
    expect(reopened("main").text()).toContain("This confirmation link has expired or has already been used.");
    expect(reopened("form[method=post] button[type=submit]")).toHaveLength(0);
  });

  it("refuses a blocked address and another reader's address", async () => {
    const cookie = await registerReader("stays.put@example.org");
    await registerReader("already.taken@example.org");
    const blocked = await postProfile(cookie, { emailAddress: "someone@blocked-domain.example", currentPassword: PASSWORD });
    expect(blocked.status).toBe(403);
    expect(await fieldError(blocked, "profile", "emailAddress")).toBe(
      "This email address cannot be used for an account. Please contact our Customer Service team for assistance.",
    );
    const taken = await postProfile(cookie, { emailAddress: "already.taken@example.org", currentPassword: PASSWORD });
    expect(taken.status).toBe(409);
    expect(await fieldError(taken, "profile", "emailAddress")).toBe(USERNAME_UNAVAILABLE);
    expect(await accountEmail(cookie)).toBe("stays.put@example.org");
  });
});

describe("the print-subscription takeover script", () => {
  it("fails at every step, and the real subscriber can still register", async () => {
    // 1. Register any account.
    const cookie = await registerReader("takeover@example.org");
    // 2. Change its e-mail to the subscriber's address: without a password, then with the intruder's own.
    const noPassword = await postProfile(cookie, { emailAddress: "ruth.okafor@example.com" });
    expect(noPassword.status).toBe(400);
    const withPassword = await postProfile(cookie, { emailAddress: "ruth.okafor@example.com", currentPassword: PASSWORD });
    expect(withPassword.status).toBe(409);
    expect(await fieldError(withPassword, "profile", "emailAddress")).toBe(USERNAME_UNAVAILABLE);
    expect(mailCount("ruth.okafor@example.com")).toBe(0);
    expect(await accountEmail(cookie)).toBe("takeover@example.org");
    // 3. Link the subscription with the account number from the mailing label.
    const link = await post("/subscriber-registration", { accountNumber: "MR10045521" }, { cookie });
    expect(link.status).toBe(404);
    expect(
      cheerio
        .load(await link.text())("main")
        .text(),
    ).toContain("No Active Subscriptions Found");
    // 4. The real subscriber registers.
    const real = await post("/subscriber-registration", {
      emailAddress: "ruth.okafor@example.com",
      accountNumber: "MR10045521",
      password: PASSWORD,
    });
    expect(real.status).toBe(303);
    expect((await signIn("ruth.okafor@example.com", PASSWORD)).status).toBe(303);
  });
});

describe("the subscriber registration page", () => {
  it("gives no subscriber's account number as its example, and claims nothing about the address in its URL", async () => {
    const seed = JSON.parse(fs.readFileSync("content/accounts.json", "utf8")) as { printSubscribers: { accountNumber: string }[] };
    const accountNumbers = seed.printSubscribers.map((s) => s.accountNumber);
    const address = "anyone.at.all@example.org";
    const res = await get(`/subscriber-registration?emailAddress=${encodeURIComponent(Buffer.from(address).toString("base64"))}`);
    expect(res.status).toBe(200);
    const $ = cheerio.load(await res.text());
    const example = $("main")
      .text()
      .match(/For example (\w+)\./)?.[1];
    expect(example).toMatch(/^MR\d{8}$/);
    expect(accountNumbers).not.toContain(example);
    // The address fills its field; nothing is said of it, since no lookup has found it.
    expect($("input[name=emailAddress]").attr("value")).toBe(address);
    expect($("main").text()).not.toMatch(/belongs to|this email address/i);

    // A signed-in reader's form has the same example.
    const cookie = await registerReader(`example.${Date.now()}@example.org`);
    const signedIn = cheerio.load(await (await get("/subscriber-registration", cookie)).text());
    expect(signedIn("main").text()).toContain(`For example ${example}.`);
  });
});

describe("lapsed print subscribers", () => {
  it("register as ordinary readers, while an active subscriber's address still goes to subscriber registration", async () => {
    const lapsed = await post("/register", {
      firstName: "Marta",
      lastName: "Quintero",
      emailAddress: "lapsed.reader@example.com",
      password: PASSWORD,
      redirectTo: "/topics",
    });
    expect(lapsed.status).toBe(303);
    expect(lapsed.headers.get("location")).toBe("/topics?registration=success");
    expect((await signIn("lapsed.reader@example.com", PASSWORD)).status).toBe(303);
    const active = await post("/register", {
      firstName: "Anders",
      lastName: "Lindqvist",
      emailAddress: "anders.lindqvist@example.co.uk",
      password: PASSWORD,
    });
    expect(active.status).toBe(303);
    expect(active.headers.get("location")).toMatch(/^\/subscriber-registration\?emailAddress=/);
  });
});

describe("changing the password", () => {
  it("mails a notice to the account's address", async () => {
    const cookie = await registerReader("notified@example.org");
    const res = await post(
      "/my-account",
      { intent: "password", currentPassword: PASSWORD, newPassword: "Harbour2!tides", confirmPassword: "Harbour2!tides" },
      { cookie },
    );
    expect(res.status).toBe(303);
    const notice = await mailTo("notified@example.org", /password was changed/);
    expect(notice).toContain("The password of your Meridian Review account was changed");
    expect(notice).toContain("If you did not make this change");
  });

  it("locks the current-password question like sign-in: 12 wrong guesses do not all get 400", async () => {
    const cookie = await registerReader("guessing.session@example.org");
    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 12; i++) {
      const res = await post(
        "/my-account",
        { intent: "password", currentPassword: `${WRONG}${i}`, newPassword: "Harbour2!tides", confirmPassword: "Harbour2!tides" },
        { cookie },
      );
      statuses.push(res.status);
      last = await fieldError(res, "change-password", "currentPassword");
    }
    expect(statuses).toEqual([400, 400, 400, 400, ...Array(8).fill(423)]);
    expect(last).toMatch(/^Your account is blocked, please wait 15 minutes to unlock and try again\./);
    // The right password waits for the lock to end too.
    const right = await post(
      "/my-account",
      { intent: "password", currentPassword: PASSWORD, newPassword: "Harbour2!tides", confirmPassword: "Harbour2!tides" },
      { cookie },
    );
    expect(right.status).toBe(423);
  });
});

describe("parallel sign-ins", () => {
  it("lock after exactly five failures, however many wrong passwords arrive at once", async () => {
    await registerReader("parallel.http@example.org");
    const statuses = await Promise.all(Array.from({ length: 12 }, () => signIn("parallel.http@example.org", WRONG).then((r) => r.status)));
    expect(statuses.sort()).toEqual([401, 401, 401, 401, ...Array(8).fill(423)]);
  });

  it("refuse the right password that arrives while wrong ones are still being checked, once the lock is decided", async () => {
    await registerReader("parallel.right.http@example.org");
    let sawLock!: () => void;
    const lockAnswered = new Promise<void>((resolve) => (sawLock = resolve));
    const wrong = Array.from({ length: 8 }, () =>
      signIn("parallel.right.http@example.org", WRONG).then((r) => {
        if (r.status === 423) sawLock();
        return r.status;
      }),
    );
    await lockAnswered;
    const right = await signIn("parallel.right.http@example.org", PASSWORD);
    expect(right.status).toBe(423);
    expect((await Promise.all(wrong)).sort()).toEqual([401, 401, 401, 401, 423, 423, 423, 423]);
  });
});
