import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Locator, type Page } from "@playwright/test";
import { createCookie } from "@remix-run/node";
import { register } from "../server/accounts/registration";
import { createSession } from "../server/accounts/sessions";
import { grantSubscription } from "../server/subscriptions/entitlements";
import { findPlan } from "../server/subscriptions/plans";
import { startSite, type Site } from "./site";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function assertNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary).toEqual([]);
}

/** Signs a new reader in by writing the account and session straight into the worker's database. */
export type SignIn = (email: string, options?: { plan?: "digital"; from?: string }) => Promise<{ userId: string }>;

export const test = base.extend<{ axe: (page: Page) => Promise<void>; js: boolean; signIn: SignIn }, { site: Site }>({
  // Each worker runs its own server on its own copy of the seeded database, so no test waits
  // for another's server or sees another's accounts.
  site: [
    async ({}, use) => {
      const site = await startSite();
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ site }, use) => use(site.url),
  js: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  signIn: async ({ site, page }, use) => {
    await use(async (email, { plan, from } = {}) => {
      const userId = await createReader(site, email, { plan });
      const token = await createSession(site.db, userId, 30);
      const cookie = createCookie("mr_session", { secrets: [site.sessionSecret] });
      const [name, value] = (await cookie.serialize(token)).split(";")[0]!.split("=");
      await page.context().addCookies([{ name: name!, value: value!, url: site.url, httpOnly: true, sameSite: "Lax" }]);
      if (from) await page.goto(from);
      return { userId };
    });
  },
  // With JS, a page is only ready once React has hydrated it, including the parts that load
  // lazily (app/components/Deferred.tsx): a click before that is a plain link or form, not what
  // the test means to try.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const hydrated = async () => {
        await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
        await page.waitForFunction(() => !document.querySelector('[data-deferred="pending"]'));
      };
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => {
        const response = await goto(...args);
        await hydrated();
        return response;
      };
      page.reload = async (...args) => {
        const response = await reload(...args);
        await hydrated();
        return response;
      };
    }
    await use(page);
  },
  axe: async ({ browser, javaScriptEnabled }, use) => {
    await use(async (page: Page) => {
      if (javaScriptEnabled !== false) return assertNoViolations(page);
      // axe runs as a script, which a no-JS page cannot; check the same server-rendered
      // document in a page whose own scripts are all blocked, so nothing hydrates.
      const context = await browser.newContext({ javaScriptEnabled: true });
      await context.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
      const twin = await context.newPage();
      await context.addCookies(await page.context().cookies());
      await twin.goto(page.url());
      await twin.evaluate(() => document.querySelectorAll("script").forEach((s) => s.remove()));
      try {
        await assertNoViolations(twin);
      } finally {
        await context.close();
      }
    });
  },
});

export { expect };

/** The first article link on the latest stream. */
export async function firstArticlePath(page: Page): Promise<string> {
  await page.goto("/the-latest");
  const href = await page.locator("main ol article h3 a").first().getAttribute("href");
  if (!href) throw new Error("no article on /the-latest");
  return href;
}

let counter = 0;

/** An address no other test uses, in either project or on a rerun. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}${process.pid}${counter}@example.org`;
}

export const PASSWORD = "Harbour7!lights";

/** Opens a reader's account (password PASSWORD) in the site's database, as registration would; with a plan, they subscribe to it. */
export async function createReader(site: Site, email: string, { plan }: { plan?: "digital" } = {}): Promise<string> {
  const registered = await register(site.db, { firstName: "Grace", lastName: "Hopper", email, password: PASSWORD, optIn: false });
  if (!registered.ok) throw new Error(`cannot register ${email}: ${registered.reason}`);
  const userId = registered.user.id;
  if (plan) {
    const roleCode = findPlan(plan)!.roleCode;
    await grantSubscription(site.db, {
      userId,
      roleCode,
      source: "web",
      reference: `e2e-${crypto.randomUUID()}`,
      accessStart: new Date(),
      months: 1,
    });
  }
  return userId;
}

/** Registers through the page (works with and without JS) and leaves the reader signed in. */
export async function registerThroughPage(page: Page, email: string, from = "/the-latest"): Promise<void> {
  await page.goto(`/register?redirectTo=${encodeURIComponent(from)}`);
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(/registration=success/);
}

/** Registers and pays for Digital in the sandbox checkout, leaving the reader on the receipt. */
export async function subscribeThroughCheckout(page: Page, label: string): Promise<void> {
  await registerThroughPage(page, uniqueEmail(label));
  await page.goto("/subscriptions");
  await page.getByRole("link", { name: "Choose Digital", exact: true }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $12.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for subscribing" })).toBeVisible();
}

/**
 * The newest mail to an address (and, if given, matching `containing`) in the site's .eml
 * outbox, waiting up to five seconds for it to arrive.
 */
export async function mailTo(site: Site, address: string, containing?: RegExp): Promise<string> {
  const outbox = path.join(site.database.dataDir, "mail");
  for (let attempt = 0; attempt < 50; attempt++) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort().reverse() : [];
    for (const file of files) {
      // Quoted-printable: soft line breaks and "=3D" for "=".
      const text = fs
        .readFileSync(path.join(outbox, file), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=");
      if (text.toLowerCase().includes(`to: ${address.toLowerCase()}`) && (!containing || containing.test(text))) return text;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${address}`);
}

const RESET_LINK = /https?:\/\/\S+\/reset-password\?token=[\w%-]+/;

/** The last password-reset link mailed to an address. */
export async function resetLinkFor(site: Site, email: string): Promise<string> {
  const link = new URL((await mailTo(site, email, RESET_LINK)).match(RESET_LINK)![0]);
  return link.pathname + link.search;
}

/** Clicks a message's close button; with JS the dismissal posts in the background, so wait for it. */
export async function dismissMessage(page: Page, button: Locator): Promise<void> {
  const posted = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/dismiss") && r.request().method() === "POST");
  await button.click();
  await posted;
}
