import { expect, test } from "./fixtures";

test("Load more items adds the next page in place, and hides after two loads", async ({ page, js }) => {
  await page.goto("/the-latest");
  const items = page.locator("main ol > li");
  await expect(items).toHaveCount(10);
  const firstTitle = await items.first().locator("h3").textContent();
  if (js) await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

  await page.getByRole("link", { name: "Load more items" }).click();
  await expect(items).toHaveCount(20);
  await expect(page).toHaveURL(/loaded=2/);
  await expect(items.first().locator("h3")).toHaveText(firstTitle!);
  if (js) {
    // Fetched in place: the same document is still loaded, and focus moved to the first new entry.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await expect(items.nth(10).locator("article")).toBeFocused();
  }
  await expect(page.getByRole("link", { name: "Load more items" })).toHaveCount(0);
});

test("numbered pagination moves between pages with Previous and Next", async ({ page }) => {
  await page.goto("/the-latest");
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
  await pagination.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
  await expect(page.locator("main ol > li")).toHaveCount(10);
  await pagination.getByRole("link", { name: "Previous" }).click();
  await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
});

test("a topic page lists its articles and links to each", async ({ page }) => {
  await page.goto("/topics");
  await page.getByRole("heading", { name: "Leadership & Managing People" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/topic\/subject\/leadership-and-managing-people$/);
  await expect(page.locator("h1")).toHaveText("Leadership & Managing People");
  const first = page.locator("main ol article h3 a").first();
  const title = await first.textContent();
  await first.click();
  await expect(page.locator("h1")).toHaveText(title!);
});

test("the topics page groups every topic under its subject, jumps to a subject, and a topic leads back to its subject", async ({
  page,
}) => {
  await page.goto("/topics");
  await expect(page.locator("main section")).toHaveCount(14);
  expect(await page.locator("main section li").count()).toBeGreaterThanOrEqual(180);
  await page.getByRole("navigation", { name: "Jump to a subject" }).getByRole("link", { name: "Strategy", exact: true }).click();
  await expect(page).toHaveURL(/\/topics#strategy$/);
  const strategy = page.getByRole("region", { name: "Strategy", exact: true });
  await expect(strategy.getByRole("heading", { name: "Strategy", exact: true })).toBeInViewport();

  await strategy.getByRole("link", { name: "Mergers & Acquisitions" }).click();
  await expect(page).toHaveURL(/\/topic\/subject\/mergers-and-acquisitions$/);
  await expect(page.locator("h1")).toHaveText("Mergers & Acquisitions");
  await expect(page.locator("main ol > li").first()).toBeVisible();

  await page.locator("main header").getByRole("link", { name: "Strategy", exact: true }).click();
  await expect(page.locator("h1")).toHaveText("Strategy");
  await expect(
    page.getByRole("navigation", { name: "Topics in Strategy" }).getByRole("link", { name: "Mergers & Acquisitions" }),
  ).toBeVisible();
});
