import { expect, firstArticlePath, test } from "./fixtures";

const PAGES: [string, string | RegExp][] = [
  ["/", "Meridian Review: ideas and advice for leaders"],
  ["/the-latest", "The Latest"],
  ["/topics", "Topics"],
  ["/topic/subject/strategy", "Strategy"],
  ["/big-ideas", "Big Ideas"],
  ["/ascend", "Ascend"],
  ["/hbr-analytic-services", "Analytic Services"],
  ["/webinars", "Webinars"],
  ["/visual-library", "Visual Library"],
  ["/magazine", "Magazine Archive"],
  ["/video", "Video"],
  ["/podcasts", "Podcasts"],
  ["/reading-lists", "Reading lists"],
  ["/archive-toc/BR2501", /./],
  ["/archive-toc/5601", /./],
  ["/search?q=strategy", "Search"],
];

for (const [path, heading] of PAGES) {
  test(`${path} renders and has no WCAG 2.2 AA violations`, async ({ page, axe }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.locator("h1")).toHaveText(heading);
    await axe(page);
  });
}

test("an article page renders and has no WCAG 2.2 AA violations", async ({ page, axe }) => {
  const path = await firstArticlePath(page);
  await page.goto(path);
  await expect(page.locator("h1")).toBeVisible();
  await expect(page.locator("article p").nth(5)).toBeVisible();
  await axe(page);
});

test("the 404 page is inside the site chrome and accessible", async ({ page, axe }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.locator("h1")).toHaveText("Page not found");
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeVisible();
  await axe(page);
});

test("a narrow screen gets the same content without horizontal page scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/the-latest");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByRole("link", { name: "Load more items" })).toBeVisible();
});

test("the header shrinks once the page scrolls past 100 px, and grows back at the top", async ({ page, js }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/the-latest");
  const root = page.locator("html");
  const logoHeight = () =>
    page.getByRole("link", { name: "Meridian Review", exact: true }).evaluate((el) => el.getBoundingClientRect().height);
  const full = await logoHeight();
  await page.evaluate(() => window.scrollTo(0, 101));
  if (!js) {
    // Without JS the header keeps one size: nothing can flip it.
    await expect(root).not.toHaveAttribute("data-scrolled");
    return;
  }
  await expect(root).toHaveAttribute("data-scrolled", "");
  await expect.poll(logoHeight).toBeLessThan(full);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(root).not.toHaveAttribute("data-scrolled");
  await expect.poll(logoHeight).toBe(full);
});
