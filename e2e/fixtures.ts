import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test as base, type Browser, type Locator, type Page } from "@playwright/test";
import axeCore from "axe-core";
import { createCookie } from "@remix-run/node";
import { register } from "~/server/accounts/registration";
import { createSession } from "~/server/accounts/sessions";
import { dismiss } from "~/server/readers/dismissals";
import { userKey } from "~/server/readers/keys";
import { grantSubscription } from "~/server/subscriptions/entitlements";
import { findPlan } from "~/server/subscriptions/plans";
import { startSite, type Site } from "./site";

export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeWindow = { axe: typeof axeCore };

/**
 * Runs axe in the page itself. The site has no frames, so @axe-core/playwright's cross-frame
 * run, which opens a second page to merge its results, would only double the cost of each check.
 */
async function assertNoViolations(page: Page) {
  await page.evaluate(axeCore.source);
  const summary = await page.evaluate(async (tags) => {
    const { violations } = await (window as unknown as AxeWindow).axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, WCAG_TAGS);
  expect(summary).toEqual([]);
}

/**
 * axe runs as a script, which a page without JS cannot. This page runs it on a copy of the
 * no-JS page's document: the same markup, with the site's scripts blocked so nothing hydrates.
 * One per worker, so the check costs no new browser process and finds the styles cached.
 */
async function openDocumentChecker(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: true });
  const page = await context.newPage();
  let documentHtml = "";
  await context.route("**/*", (route) => {
    const request = route.request();
    if (request.isNavigationRequest()) return route.fulfill({ contentType: "text/html; charset=utf-8", body: documentHtml });
    return request.resourceType() === "script" ? route.abort() : route.continue();
  });
  return {
    async check(source: Page) {
      documentHtml = await source.content();
      await page.goto(source.url());
      await assertNoViolations(page);
    },
    close: () => context.close(),
  };
}

/** Signs a new reader in by writing the account and session straight into the worker's database. */
export type SignIn = (email: string, options?: ReaderOptions & { from?: string }) => Promise<{ userId: string }>;

/**
 * A reader's subscription, if any. A subscriber has seen the onboarding dialog unless
 * `onboarded` is false: with JS it is modal, and would stand in front of what a test means to try.
 */
export interface ReaderOptions {
  plan?: "digital";
  onboarded?: boolean;
  /** The reader's name; Grace Hopper unless given (a test of two people tells them apart by it). */
  firstName?: string;
  lastName?: string;
}

/**
 * Everything the browser reports as going wrong while a test runs: uncaught errors, console
 * errors and warnings (React reports a hydration mismatch as one), and sub-resources that fail.
 * A 4xx answer to a navigation or a fetcher's post is the site refusing bad input as it means to,
 * so Chromium's "Failed to load resource" line for it is not counted; a 5xx always is. A test
 * that breaks something on purpose (a chunk it blocks) allows what that causes, and only that.
 */
export interface BrowserErrors {
  allow: (pattern: RegExp) => void;
}

function watchBrowserErrors(page: Page): BrowserErrors & { unexpected: () => string[] } {
  const problems: string[] = [];
  const allowed: RegExp[] = [];
  const record = (problem: string) => problems.push(`${new URL(page.url()).pathname}: ${problem.split("\n")[0]}`);
  page.on("pageerror", (error) => record(error.message));
  page.on("console", (message) => {
    const text = message.text();
    if (message.type() === "error") {
      if (!/^Failed to load resource: the server responded with a status of 4\d\d/.test(text))
        record(`${text} (${message.location().url})`);
    } else if (message.type() === "warning" && /hydrat|did not match|server rendered/i.test(text)) {
      record(text);
    }
  });
  page.on("response", (response) => {
    const type = response.request().resourceType();
    if (response.status() >= 400 && !["document", "fetch", "xhr"].includes(type)) {
      record(`${type} ${new URL(response.url()).pathname} answered ${response.status()}`);
    }
  });
  return {
    allow: (pattern) => allowed.push(pattern),
    unexpected: () => problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem))),
  };
}

export const test = base.extend<
  { axe: (page: Page) => Promise<void>; js: boolean; signIn: SignIn; browserErrors: BrowserErrors },
  { site: Site; documentChecker: Awaited<ReturnType<typeof openDocumentChecker>> }
>({
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
    await use(async (email, { from, ...options } = {}) => {
      const userId = await createReader(site, email, options);
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
  // With JS, every test fails on anything the browser reports as going wrong (watchBrowserErrors).
  browserErrors: [
    async ({ page, javaScriptEnabled }, use) => {
      const watch = watchBrowserErrors(page);
      await use(watch);
      if (javaScriptEnabled !== false) expect(watch.unexpected(), "page errors, console errors and hydration warnings").toEqual([]);
    },
    { auto: true },
  ],
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
  documentChecker: [
    async ({ browser }, use) => {
      const checker = await openDocumentChecker(browser);
      try {
        await use(checker);
      } finally {
        await checker.close();
      }
    },
    { scope: "worker" },
  ],
  axe: async ({ javaScriptEnabled, documentChecker }, use) => {
    await use((page: Page) => (javaScriptEnabled === false ? documentChecker.check(page) : assertNoViolations(page)));
  },
});

export { expect };

/**
 * With JS, waits until the form a field belongs to checks it in the browser. Forms load their
 * schemas after the page has hydrated (ADR 047): a test that leaves a field to see its message
 * waits for this, not for time.
 */
export async function formChecksReady(field: Locator): Promise<void> {
  await expect(field.locator("xpath=ancestor::form[1]")).toHaveAttribute("data-schema", "loaded");
}

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
export async function createReader(
  site: Site,
  email: string,
  { plan, onboarded = true, firstName = "Grace", lastName = "Hopper" }: ReaderOptions = {},
): Promise<string> {
  const registered = await register(site.db, { firstName, lastName, email, password: PASSWORD, optIn: false });
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
    if (onboarded) await dismiss(site.db, userKey(userId), "onboarding");
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

/** Registers and pays for Digital in the sandbox checkout, leaving the reader on the receipt; answers their address. */
export async function subscribeThroughCheckout(page: Page, label: string, card = "4242 4242 4242 4242"): Promise<string> {
  const email = uniqueEmail(label);
  await registerThroughPage(page, email);
  await page.goto("/subscriptions");
  await page.getByRole("link", { name: "Choose Digital", exact: true }).click();
  // Billed where no sales tax is due, so the figures are the plan's price.
  await page.getByLabel("Country").selectOption({ label: "United Kingdom" });
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByLabel("Card number").fill(card);
  await page.getByRole("button", { name: "Pay $12.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for subscribing" })).toBeVisible();
  // The next page welcomes the new subscriber (a modal dialog with JS): they close it.
  const receipt = page.url();
  await page.goto("/");
  await dismissMessage(page, page.locator("[data-onboarding]").getByRole("button", { name: "Ok, thanks" }));
  await page.goto(receipt);
  return email;
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

const siteHeader = (page: Page) => page.locator("header[data-site-header]");

/**
 * The signed-in reader's name in the header, "My account: …": a link to the account without JS;
 * with JS, the button that opens the account menu.
 */
export function accountControl(page: Page, name: string): Locator {
  const header = siteHeader(page);
  return header.getByRole("link", { name, exact: true }).or(header.getByRole("button", { name, exact: true }));
}

/**
 * One of the signed-in reader's links or buttons in the wide header (My Library, Following,
 * Log out), once the account menu that JS folds them into is open.
 */
export async function accountMenuItem(page: Page, js: boolean, role: "link" | "button", name: string | RegExp): Promise<Locator> {
  const header = siteHeader(page);
  if (js) await header.locator('button[aria-controls="account-menu"]').click();
  return header.getByRole(role, { name, exact: typeof name === "string" });
}

export async function logOutFromHeader(page: Page, js: boolean): Promise<void> {
  await (await accountMenuItem(page, js, "button", "Log out")).click();
}

/** A link drawn as a button: a box at least 44 px tall, with its words inside it and centred top to bottom. */
export async function expectWordsInsideButton(button: Locator): Promise<void> {
  const { box, words } = await button.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const outer = el.getBoundingClientRect();
    const inner = range.getBoundingClientRect();
    return { box: { top: outer.top, bottom: outer.bottom }, words: { top: inner.top, bottom: inner.bottom } };
  });
  expect(box.bottom - box.top, "the button's height").toBeGreaterThanOrEqual(44);
  expect(words.top, "the words' top against the button's").toBeGreaterThanOrEqual(box.top);
  expect(words.bottom, "the words' bottom against the button's").toBeLessThanOrEqual(box.bottom);
  expect(Math.abs((words.top + words.bottom) / 2 - (box.top + box.bottom) / 2), "the words' distance from the middle").toBeLessThanOrEqual(
    2,
  );
}

/** The add-to-cart form for one availability (a product page may list several). */
export const addForm = (page: Page, availabilityId: number): Locator =>
  page.locator(`form:has(input[name="productId"][value="${availabilityId}"]):has(input[name="type"]:not([value="Perm"]))`);

/** Adds one copy from the product page, as a shopper does: the confirmation is a page without JS, a dialog with it. */
export async function addToCart(page: Page, productUrl: string): Promise<void> {
  await page.goto(productUrl);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Added to your cart" })).toBeVisible();
}

/** A New York address and standard shipping on the shipping and payment page. */
export async function fillAddress(page: Page): Promise<void> {
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Byron");
  await page.getByLabel("Address line 1").fill("12 Harbour Road");
  await page.getByLabel("City").fill("Albany");
  await page.getByLabel("State", { exact: true }).selectOption("NY");
  await page.getByLabel("ZIP code").fill("12207");
  await page.getByLabel(/^Standard/).check();
}
