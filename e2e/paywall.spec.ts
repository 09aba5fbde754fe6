import type { Page } from "@playwright/test";
import { accountControl, dismissMessage, expect, expectWordsInsideButton, PASSWORD, test, uniqueEmail } from "./fixtures";

// The metered paywall as a reader meets it, with and without JavaScript: four free articles, the
// registration wall, registering from it, the registered allowance, the subscribe wall, paying
// in the sandbox checkout, and reading everything as a subscriber.

const header = (page: Page) => page.locator("header[data-site-header]");
const gated = (page: Page) => page.locator("#article-body .paywalled-content");
const wall = (page: Page) => page.locator("#paywall");

/** Article paths from the latest stream, leaving out Ascend pages (they have a meter of their own). */
async function meteredArticlePaths(page: Page, count: number): Promise<string[]> {
  await page.goto("/ascend");
  const ascend = new Set(await page.locator("main article h3 a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))));
  const paths: string[] = [];
  for (let p = 1; paths.length < count && p <= 5; p++) {
    await page.goto(`/the-latest?page=${p}`);
    for (const href of await page.locator("main ol article h3 a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
      if (href && !ascend.has(href) && !paths.includes(href)) paths.push(href);
    }
  }
  if (paths.length < count) throw new Error(`only ${paths.length} metered articles found`);
  return paths.slice(0, count);
}

test("a guest reads four articles, registers at the wall, reads on, subscribes and reads everything", async ({ page, js, axe }) => {
  test.setTimeout(90_000);
  const articles = await meteredArticlePaths(page, 9);
  await page.context().clearCookies();

  // Four free articles, counted down by the banner.
  const counts = [
    "You have 3 free articles left this month.",
    "You have 2 free articles left this month.",
    "You have 1 free article left this month.",
    "This is your last free article this month.",
  ];
  for (const [i, path] of articles.slice(0, 4).entries()) {
    await page.goto(path);
    await expect(page.getByRole("status").filter({ hasText: counts[i]! })).toBeVisible();
    await expect(gated(page)).toHaveCount(1);
    await expect(wall(page)).toHaveCount(0);
  }
  // Opening one of them again is free.
  await page.goto(articles[0]!);
  await expect(gated(page)).toHaveCount(1);

  // The fifth meets the registration wall: the preview, then a working registration form.
  await page.goto(articles[4]!);
  await expect(wall(page).getByRole("heading", { name: "Do you want to keep reading Meridian Review for free?" })).toBeVisible();
  await expect(gated(page)).toHaveCount(0);
  await expect(page.locator("#article-body p").first()).toBeVisible();
  const email = uniqueEmail("wall");
  await wall(page).getByLabel("First name").fill("Grace");
  await wall(page).getByLabel("Last name").fill("Hopper");
  await wall(page).getByLabel("Email address").fill(email);
  await wall(page).getByLabel("Password", { exact: true }).fill(PASSWORD);
  await wall(page).getByRole("button", { name: "Create Account" }).click();

  // Back on the same article, signed in, reading it in full.
  await expect(page).toHaveURL(new RegExp(`${articles[4]}\\?registration=success$`));
  await expect(page.getByRole("status").filter({ hasText: "Thank you for registering" })).toBeVisible();
  await expect(gated(page)).toHaveCount(1);

  // The registered allowance (8 a month) includes the five read as a guest: three more.
  for (const path of articles.slice(5, 8)) {
    await page.goto(path);
    await expect(gated(page)).toHaveCount(1);
  }
  await page.goto(articles[8]!);
  await expect(wall(page).getByText("Thanks for reading, Grace.")).toBeVisible();
  await expect(wall(page).getByRole("heading", { name: "You have read all of your free articles this month." })).toBeVisible();
  await expect(gated(page)).toHaveCount(0);
  const subscribe = wall(page).getByRole("link", { name: "Subscribe" });
  await expect(subscribe).toHaveAttribute("href", /^\/subscriptions\?ab=paywall-[a-z0-9-]+$/);
  await expectWordsInsideButton(subscribe);
  await subscribe.click();

  // Choose a plan, go to the provider's checkout, meet a declined card, then pay.
  await expect(page.getByRole("heading", { level: 1, name: "Subscribe to Meridian Review" })).toBeVisible();
  await page.getByRole("link", { name: "Choose Digital", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Subscribe: Digital" })).toBeVisible();
  await expect(page).toHaveURL(/ab=paywall-/);
  // The billing address first: the tax it calls for is shown, to the cent, before paying.
  await page.getByLabel("Country").selectOption({ label: "United States" });
  await page.getByLabel("State or province (United States and Canada)").selectOption({ label: "New York" });
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/ab=paywall-/);
  await expect(page.getByText("Tax (NY 4%): $0.48", { exact: true })).toBeVisible();
  await expect(page.getByText("$12.48", { exact: true })).toBeVisible();
  await axe(page);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await expect(page.getByText("Total due today: $12.48")).toBeVisible();
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay $12.48" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined. No payment was taken.");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $12.48" }).click();

  // The receipt, once the subscription is active; the user menu shows the level.
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for subscribing" })).toBeVisible();
  await expect(page.getByText("Your Digital subscription is active.")).toBeVisible();
  await expect(accountControl(page, "My account: Grace Hopper, Digital subscriber")).toBeVisible();
  await expect(header(page).getByRole("link", { name: "Subscribe", exact: true })).toHaveCount(0);
  await expectWordsInsideButton(page.getByRole("link", { name: "Close", exact: true }));
  await page.getByRole("link", { name: "Close", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  // The onboarding message, once.
  // A dialog over the page with JS; a message at the top of it without.
  const onboarding = page.getByRole(js ? "dialog" : "region", { name: "Welcome to your Digital subscription, Grace" });
  await expect(onboarding).toBeVisible();
  await dismissMessage(page, onboarding.getByRole("button", { name: "Ok, thanks" }));
  await expect(onboarding).toHaveCount(0);
  await page.reload();
  await expect(page.locator("h1")).toHaveCount(1);
  await expect(onboarding).toHaveCount(0);

  // Everything opens, with no wall, counter or subscribe prompt.
  for (const path of [articles[8]!, articles[4]!]) {
    await page.goto(path);
    await expect(gated(page)).toHaveCount(1);
    await expect(wall(page)).toHaveCount(0);
    await expect(page.locator("[data-counter]")).toHaveCount(0);
  }
});

test("a metered-out guest can sign in from the wall and is returned to the article", async ({ page, browser }) => {
  const [first, ...rest] = await meteredArticlePaths(page, 5);
  // A reader who registered elsewhere.
  const email = uniqueEmail("wall-signin");
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto("/register");
  await otherPage.getByLabel("First name").fill("Ada");
  await otherPage.getByLabel("Last name").fill("Byron");
  await otherPage.getByLabel("Email address").fill(email);
  await otherPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await otherPage.getByRole("button", { name: "Create Account" }).click();
  await otherPage.waitForURL(/registration=success/);
  await other.close();

  await page.context().clearCookies();
  for (const path of [first!, ...rest.slice(0, 3)]) await page.goto(path);
  await page.goto(rest[3]!);
  await wall(page).getByRole("link", { name: "Already registered? Sign in" }).click();
  await expect(wall(page)).toHaveAttribute("data-screen", "sign-in");
  await wall(page).getByLabel("Email address").fill(email);
  await wall(page).getByLabel("Password", { exact: true }).fill(PASSWORD);
  await wall(page).getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`${rest[3]}$`));
  await expect(accountControl(page, "My account: Ada Byron")).toBeVisible();
  await expect(gated(page)).toHaveCount(1);
});

test("a metered article and the wall have no WCAG 2.2 AA violations", async ({ page, axe }) => {
  const articles = await meteredArticlePaths(page, 5);
  await page.context().clearCookies();
  for (const path of articles.slice(0, 4)) await page.goto(path);
  await axe(page);
  await page.goto(articles[4]!);
  await expect(wall(page)).toBeVisible();
  await axe(page);
});

test("the subscription pages a wall leads to have no WCAG 2.2 AA violations", async ({ page, axe }) => {
  await page.goto("/subscriptions?ab=paywall-article");
  await axe(page);
  await page.goto("/subscriptions/checkout?plan=premium&ab=paywall-article");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await axe(page);
});
