import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { hasSubject, RESET_SUBJECT, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// Sessions, cross-site refusal, honeypot, rate limits and the mailed reset link, checked
// against the production build as a browser (or a forger) would meet them.

const PASSWORD = "Lantern5!quay";
let server: RunningServer;
let smtp: LoopbackSmtp;
let ipCounter = 10;

/** Each test posts from its own client address (CLIENT_IP_HEADER), so only the rate-limit test meets the limit. */
function newClientIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter}`;
}

async function post(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; ip: string; origin?: string | null; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    "X-Forwarded-For": options.ip,
    ...options.headers,
  };
  if (options.origin !== null) headers.Origin = options.origin ?? server.url;
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(server.url + path, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" });
}

/** "mr_session=…" from a response's Set-Cookie, or undefined. */
function sessionCookie(res: Response): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith("mr_session="));
  return header?.split(";")[0];
}

async function signedIn(cookie: string): Promise<boolean> {
  const res = await fetch(`${server.url}/my-account`, { headers: { Cookie: cookie }, redirect: "manual" });
  return res.status === 200;
}

async function registerReader(email: string, ip: string): Promise<string> {
  const res = await post("/register", { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD }, { ip });
  expect(res.status).toBe(303);
  const cookie = sessionCookie(res);
  expect(cookie).toBeTruthy();
  return cookie!;
}

async function signIn(email: string, password: string, ip: string, cookie?: string): Promise<Response> {
  return post("/sign-in", { username: email, password, redirectTo: "/" }, { ip, cookie });
}

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer({
    SMTP_URL: smtp.url,
    CLIENT_IP_HEADER: "x-forwarded-for",
    RATE_LIMIT_PER_IP: "4",
    RATE_LIMIT_PER_ACCOUNT: "100",
    // Short locks, so three of them (the day-long lock) fit in a test.
    LOGIN_LOCKOUT_SECONDS: "1",
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("sessions", () => {
  it("gives the session cookie HttpOnly and SameSite=Lax", async () => {
    const res = await post(
      "/register",
      { firstName: "A", lastName: "B", emailAddress: "cookie.flags@example.org", password: PASSWORD },
      { ip: newClientIp() },
    );
    const header = res.headers.getSetCookie().find((c) => c.startsWith("mr_session="))!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
  });

  it("issues a new session id at sign-in, and the id the browser held before stops working", async () => {
    const ip = newClientIp();
    const before = await registerReader("rotation@example.org", ip);
    expect(await signedIn(before)).toBe(true);
    const res = await signIn("rotation@example.org", PASSWORD, ip, before);
    expect(res.status).toBe(303);
    const after = sessionCookie(res)!;
    expect(after).not.toBe(before);
    expect(await signedIn(after)).toBe(true);
    expect(await signedIn(before)).toBe(false);
  });

  it("ends the session on the server at sign-out, so a copied cookie is dead", async () => {
    const ip = newClientIp();
    const cookie = await registerReader("signout@example.org", ip);
    const res = await post("/logout?return=/topics", {}, { ip, cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/topics");
    expect(res.headers.getSetCookie().find((c) => c.startsWith("mr_session="))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await signedIn(cookie)).toBe(false);
  });

  it("sends sign-out to / when the return path leads off the site", async () => {
    for (const target of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
      const res = await fetch(`${server.url}/logout?return=${encodeURIComponent(target)}`, {
        headers: { "Sec-Fetch-Site": "same-origin" },
        redirect: "manual",
      });
      expect(res.headers.get("location"), target).toBe("/");
    }
  });

  it("ends the reader's other sessions when the password changes, and keeps this one", async () => {
    const ip = newClientIp();
    const here = await registerReader("changer@example.org", ip);
    const elsewhere = sessionCookie(await signIn("changer@example.org", PASSWORD, ip))!;
    const res = await post(
      "/my-account",
      { intent: "password", currentPassword: PASSWORD, newPassword: "Harbour2!tides", confirmPassword: "Harbour2!tides" },
      { ip, cookie: here },
    );
    expect(res.status).toBe(303);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
  });
});

describe("refusals", () => {
  it("refuses a post from another site and stores nothing", async () => {
    const ip = newClientIp();
    const fields = { firstName: "Forged", lastName: "Post", emailAddress: "forged@example.org", password: PASSWORD };
    const byOrigin = await post("/register", fields, { ip, origin: "https://evil.example" });
    expect(byOrigin.status).toBeGreaterThanOrEqual(400);
    const byFetchSite = await post("/register", fields, { ip, origin: null, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(byFetchSite.status).toBe(403);
    expect((await signIn("forged@example.org", PASSWORD, ip)).status).toBe(401);
  });

  it("answers a filled honeypot with 400 and opens no account", async () => {
    const ip = newClientIp();
    const res = await post(
      "/register",
      { firstName: "Bot", lastName: "Net", emailAddress: "bot@example.org", password: PASSWORD, website: "http://spam.example" },
      { ip },
    );
    expect(res.status).toBe(400);
    expect((await signIn("bot@example.org", PASSWORD, ip)).status).toBe(401);
  });

  it("rate-limits posts from one address, with a message that says how long to wait", async () => {
    const ip = newClientIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post("/forgot-password", { emailAddress: `limit${i}@example.org` }, { ip })).status);
    expect(statuses).toEqual([303, 303, 303, 303, 429]);
    const page = cheerio.load(await (await post("/forgot-password", { emailAddress: "limit@example.org" }, { ip })).text());
    expect(page("#forgot-password-error").text()).toMatch(/^Too many attempts .* Please wait \d+ (minutes?|seconds?) and try again\.$/);
    // Another client is not affected.
    expect((await post("/forgot-password", { emailAddress: "limit@example.org" }, { ip: newClientIp() })).status).toBe(303);
  });

  it("says why a sign-in was refused once, in the error summary that the form's description names, with the ways on", async () => {
    const ip = newClientIp();
    const page = cheerio.load(await (await signIn("nobody@example.org", "Wrong5!password", ip)).text());
    const message = page("#sign-in-error p").first().text();
    expect(message).toMatch(/^You have entered an invalid email and password combination\. Please try again\./);
    expect(page("main").text().split(message)).toHaveLength(2);
    expect(page("#sign-in-error").closest('[role="alert"]').find("h2").text()).toBe("There is a problem");
    expect(page("form#sign-in").attr("aria-describedby")).toContain("sign-in-error");
    expect(
      page("#sign-in-error a")
        .map((_, a) => page(a).text())
        .get(),
    ).toEqual(["Reset your password", "create an account"]);
  });

  it("answers an unknown address exactly like a wrong password", async () => {
    const ip = newClientIp();
    await registerReader("known@example.org", ip);
    const wrong = cheerio
      .load(await (await signIn("known@example.org", "Wrong5!password", ip)).text())("#sign-in-error")
      .text();
    const unknown = cheerio
      .load(await (await signIn("unknown@example.org", "Wrong5!password", ip)).text())("#sign-in-error")
      .text();
    expect(unknown).toBe(wrong);
  });
});

describe("the day-long lock", () => {
  it("follows a third lockout, and a reset request then answers 423", async () => {
    const ip = newClientIp();
    await registerReader("hammered@example.org", ip);
    let last = "";
    for (let lockout = 0; lockout < 3; lockout++) {
      for (let i = 0; i < 5; i++) last = await (await signIn("hammered@example.org", "Guess1!password", newClientIp())).text();
      if (lockout < 2) await new Promise((r) => setTimeout(r, 1100));
    }
    expect(cheerio.load(last)("#sign-in-error").text()).toContain("Your account is blocked, please wait 24 hours to unlock and try again.");
    const res = await post("/forgot-password", { emailAddress: "hammered@example.org" }, { ip: newClientIp() });
    expect(res.status).toBe(423);
    expect(
      cheerio
        .load(await res.text())("#forgot-password-error")
        .text(),
    ).toBe("You cannot unlock your account by resetting the password. Please wait 24 hours to unlock and try again.");
  });
});

describe("password reset by mail", () => {
  it("mails a link through SMTP that works once and signs every session out", async () => {
    const ip = newClientIp();
    const cookie = await registerReader("mailed@example.org", ip);
    const res = await post("/forgot-password", { emailAddress: "mailed@example.org" }, { ip });
    expect(res.headers.get("location")).toBe("/forgot-password?sent=1");
    const mail = await smtp.waitFor((m) => m.rcptTo.includes("mailed@example.org") && hasSubject(m, RESET_SUBJECT));
    const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const link = new URL(body.match(/https?:\/\/\S+\/reset-password\?token=[\w%-]+/)![0]);
    expect(link.origin).toBe(server.url);
    const token = link.searchParams.get("token")!;

    const form = await fetch(`${server.url}/reset-password?token=${encodeURIComponent(token)}`);
    expect(
      cheerio
        .load(await form.text())("input[name=token]")
        .attr("value"),
    ).toBe(token);
    const reset = await post("/reset-password", { token, newPassword: "Beacon8!shore", confirmPassword: "Beacon8!shore" }, { ip });
    expect(reset.status).toBe(303);
    expect(reset.headers.get("location")).toBe("/sign-in?reset=success");
    expect(await signedIn(cookie)).toBe(false);
    expect((await signIn("mailed@example.org", "Beacon8!shore", ip)).status).toBe(303);
    const again = await post("/reset-password", { token, newPassword: "Other9!shore", confirmPassword: "Other9!shore" }, { ip });
    expect(again.status).toBe(410);
  });

  it("sends no mail for an address without an account, and answers the same", async () => {
    const ip = newClientIp();
    await registerReader("sentinel@example.org", ip);
    const before = smtp.received.length;
    const res = await post("/forgot-password", { emailAddress: "stranger@example.org" }, { ip });
    expect(res.headers.get("location")).toBe("/forgot-password?sent=1");
    // Wait for what a mail to the stranger would have come before: the reset asked for next,
    // for an address with an account.
    await post("/forgot-password", { emailAddress: "sentinel@example.org" }, { ip });
    await smtp.waitFor((m) => m.rcptTo.includes("sentinel@example.org") && hasSubject(m, RESET_SUBJECT));
    expect(smtp.received.slice(before).map((m) => m.rcptTo)).toEqual([["sentinel@example.org"]]);
  });
});
