import type { Page } from "@playwright/test";
import { dismissMessage, expect, firstArticlePath, test, uniqueEmail } from "./fixtures";

// One-time messages: help boxes and the persistent subscribe banner. Each closes for good (per
// visitor here, per account once signed in), with a plain form without JS and in place with JS.

const banner = (page: Page) => page.locator("[data-persistent-banner]");

test("a help box closes with Ok, thanks and stays closed", async ({ page }) => {
  await page.goto("/");
  const box = page.getByRole("complementary", { name: "Get more from Meridian Review" });
  await expect(box).toBeVisible();
  await expect(box.getByRole("link", { name: "Create a free account" })).toHaveAttribute("href", "/register");
  await dismissMessage(page, box.getByRole("button", { name: "Ok, thanks" }));
  await expect(box).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "The Latest" }).first()).toBeVisible();
  await expect(box).toHaveCount(0);
});

test("a signed-in reader meets the help boxes where they belong: saves on an article, the library, and for a subscriber the Insider", async ({
  page,
  signIn,
  js,
}) => {
  await signIn(uniqueEmail("help-boxes"), { plan: "digital" });
  const places: [string, string][] = [
    [await firstArticlePath(page), "Save it for later"],
    ["/my-library", "Your library"],
    ["/email-newsletters", "The Insider newsletter"],
  ];
  for (const [path, headline] of places) {
    await page.goto(path);
    const box = page.getByRole("complementary", { name: headline });
    await expect(box, path).toBeVisible();
    await dismissMessage(page, box.getByRole("button", { name: "Ok, thanks" }));
    await expect(box, path).toHaveCount(0);
    // With JS the box closes in place, and focus moves on to what followed it instead of being lost.
    if (js) expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null), path).toBe(true);
    await page.reload();
    await expect(page.locator("h1").first()).toBeVisible();
    await expect(box, path).toHaveCount(0);
  }
});

test("a guest meets none of the signed-in readers' help boxes", async ({ page }) => {
  await page.goto(await firstArticlePath(page));
  await expect(page.getByRole("heading", { name: "Save it for later" })).toHaveCount(0);
  await page.goto("/email-newsletters");
  await expect(page.getByRole("heading", { name: "The Insider newsletter" })).toHaveCount(0);
});

test("the persistent banner invites guests to subscribe on articles and closes for good", async ({ page, js }) => {
  const article = await firstArticlePath(page);
  await page.goto(article);
  if (js) {
    // It waits until the reader reaches the article body, and Escape closes it for this page.
    await page.locator("#article-body").scrollIntoViewIfNeeded();
    await expect(banner(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(banner(page)).toHaveCount(0);
    await page.reload();
    await page.locator("#article-body").scrollIntoViewIfNeeded();
    await expect(banner(page)).toBeVisible();
  } else {
    await expect(banner(page)).toBeVisible();
  }
  await expect(banner(page).getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/subscriptions?ab=persistent-banner");
  await dismissMessage(page, banner(page).getByRole("button", { name: "Close the subscription banner" }));
  await expect(banner(page)).toHaveCount(0);
  await page.goto(article);
  await expect(page.locator("h1")).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});

test("pages with a help box or the banner have no WCAG 2.2 AA violations", async ({ page, axe }) => {
  await page.goto("/");
  await axe(page);
  await page.goto(await firstArticlePath(page));
  await page.locator("#article-body").scrollIntoViewIfNeeded();
  await axe(page);
});
