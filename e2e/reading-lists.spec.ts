import type { Page } from "@playwright/test";
import { articlePath } from "~/shared/urls";
import { expect, test } from "./fixtures";
import type { Site } from "./site";

// Reading lists (spec "Reading-list overlay"): "THIS ARTICLE APPEARS IN" links each list's own
// page; with JS a click shows that page's list in a dialog over the article instead.

const SHARED_ARTICLE = "The Calibration Meeting Is Where Talent Gets Decided";
const LISTS = ["Leading Through Reorganization", "Your First Years as a Manager"];

async function pathOf(site: Site, title: string): Promise<string> {
  return articlePath(
    await site.db.selectFrom("article").select(["year", "month", "slug"]).where("title", "=", title).executeTakeFirstOrThrow(),
  );
}

const related = (page: Page) => page.getByRole("complementary", { name: "Related" });
const overflow = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).overflow);

/** The numerals of a list's items, in order. */
const numerals = (scope: ReturnType<Page["locator"]>) =>
  scope.locator("ol > li > [aria-hidden='true']").evaluateAll((spans) => spans.map((s) => s.textContent));

test("THIS ARTICLE APPEARS IN opens the list: a dialog with JS (Escape and Close give focus back), its page without", async ({
  page,
  js,
  site,
  axe,
}) => {
  const article = await pathOf(site, SHARED_ARTICLE);
  await page.goto(article);
  await expect(related(page).getByRole("heading", { name: "THIS ARTICLE APPEARS IN" })).toBeVisible();
  const trigger = related(page).getByRole("link", { name: LISTS[0] });
  for (const name of LISTS) {
    await expect(related(page).getByRole("link", { name })).toHaveAttribute("href", /^\/reading-lists\/[a-z0-9-]+$/);
  }
  await trigger.click();

  if (!js) {
    await expect(page).toHaveURL(/\/reading-lists\/leading-through-reorganization$/);
    await expect(page.getByRole("heading", { level: 1, name: LISTS[0] })).toBeVisible();
    const main = page.locator("main");
    expect(await numerals(main)).toEqual(["1", "2", "3"]);
    await expect(main.getByText("2 more articles complete this list")).toBeVisible();
    await expect(main.getByRole("region", { name: "Related reading lists" }).getByRole("link", { name: LISTS[1] })).toBeVisible();
    await expect(page.locator("dialog")).toHaveCount(0);
    await axe(page);
    return;
  }

  const dialog = page.getByRole("dialog", { name: LISTS[0] });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${article}$`));
  // The page's own list, numbered, with the rest kept for subscribers and links to related lists.
  await expect.poll(() => numerals(dialog)).toEqual(["1", "2", "3"]);
  await expect(dialog.getByText("2 more articles complete this list")).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Related reading lists" }).getByRole("link", { name: LISTS[1] })).toBeVisible();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  expect(await overflow(page)).toBe("hidden");
  await axe(page);

  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect.poll(() => overflow(page)).not.toBe("hidden");

  await trigger.click();
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(trigger).toBeFocused();

  // An article in the dialog opens within its list, and the dialog goes.
  await trigger.click();
  const first = page.getByRole("dialog", { name: LISTS[0] }).locator("ol > li h3 a").first();
  const title = await first.textContent();
  await first.click();
  await expect(page).toHaveURL(/\?list=leading-through-reorganization$/);
  await expect(page.getByRole("heading", { level: 1, name: title! })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect.poll(() => overflow(page)).not.toBe("hidden");
});

test("a subscriber's list page and dialog hold the whole list", async ({ page, js, site, signIn }) => {
  await signIn(`lists.${Date.now()}.${js ? "js" : "nojs"}@example.org`, { plan: "digital" });
  await page.goto(await pathOf(site, SHARED_ARTICLE));
  await related(page).getByRole("link", { name: LISTS[0] }).click();
  const scope = js ? page.getByRole("dialog", { name: LISTS[0] }) : page.locator("main");
  await expect.poll(() => numerals(scope)).toEqual(["1", "2", "3", "4", "5"]);
  await expect(scope.getByText("more articles complete this list")).toHaveCount(0);
});

test("each reading list's page numbers its articles in reading order", async ({ page }) => {
  await page.goto("/reading-lists");
  const links = await page.locator("main h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
  expect(links.length).toBeGreaterThan(1);
  for (const href of links) {
    await page.goto(href);
    const items = page.locator("main ol > li");
    const count = await items.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) {
      await expect(items.nth(i).locator('[aria-hidden="true"]').first()).toHaveText(String(i + 1));
      await expect(items.nth(i).getByRole("link")).toHaveAttribute("href", /\?list=/);
    }
  }
});

test("an article read within a list shows the list, and links the other list it appears in", async ({ page, js, site }) => {
  await page.goto(`${await pathOf(site, SHARED_ARTICLE)}?list=your-first-years-as-a-manager`);
  const overlay = page.locator("[data-reading-list]");
  await overlay.getByText(`Reading list: ${LISTS[1]}`).click();
  await expect(overlay.locator("[aria-current='page']")).toHaveText(SHARED_ARTICLE);
  await overlay.getByRole("link", { name: LISTS[0] }).click();
  if (js) await expect(page.getByRole("dialog", { name: LISTS[0] })).toBeVisible();
  else await expect(page.getByRole("heading", { level: 1, name: LISTS[0] })).toBeVisible();
});
