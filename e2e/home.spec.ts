import { expect, test } from "./fixtures";

// The front page: a lead package beside The Latest, then Most Popular, Big Ideas, Video,
// Podcasts, the magazine and newsletters, reading well from a phone to a desktop.
const SECTIONS = ["The Latest", "Most Popular", "Big Ideas", "Video", "Podcasts", "From the Magazine", "Newsletters", "Topics"];

for (const width of [390, 768, 1280]) {
  test(`at ${width} px the front page has every section, no empty places in its rows, and card summaries cut to fit`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    for (const name of SECTIONS) await expect(page.getByRole("heading", { level: 2, name, exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Every grid of stories fills its last row.
    const grids = await page.locator("main ul, main ol").evaluateAll((lists) =>
      lists
        .filter((l) => getComputedStyle(l).display === "grid")
        .map((l) => ({
          label: l.closest("section")?.querySelector("h2")?.textContent ?? "",
          items: l.children.length,
          columns: getComputedStyle(l).gridTemplateColumns.split(" ").length,
        })),
    );
    expect(grids.length).toBeGreaterThan(4);
    for (const grid of grids) expect(grid.items % grid.columns, `${grid.label}: ${grid.items} in ${grid.columns} columns`).toBe(0);

    // A card's summary is at most three lines; the lead story keeps its whole summary.
    const summaries = await page
      .locator("main li article h3 + p")
      .evaluateAll((ps) => ps.map((p) => ({ height: p.getBoundingClientRect().height, line: parseFloat(getComputedStyle(p).lineHeight) })));
    expect(summaries.length).toBeGreaterThan(4);
    for (const s of summaries) expect(s.height).toBeLessThanOrEqual(s.line * 3 + 1);
  });
}

for (const width of [1025, 1280]) {
  test(`at ${width} px no column of the top of the page is left empty beside a long one`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    const [lead, latest] = await page
      .locator("main section")
      .filter({ has: page.locator("h2#lead-heading, h2#latest-heading") })
      .evaluateAll((sections) =>
        sections.map((s) => ({
          left: s.getBoundingClientRect().left,
          height: s.lastElementChild!.getBoundingClientRect().bottom - s.getBoundingClientRect().top,
        })),
      );
    // Side by side, and the shorter at least four fifths of the longer.
    expect(latest!.left).toBeGreaterThan(lead!.left);
    expect(Math.min(lead!.height, latest!.height) / Math.max(lead!.height, latest!.height)).toBeGreaterThanOrEqual(0.8);
  });
}

test("Most Popular numbers its stories, and each story, video and show links to its page", async ({ page, axe }) => {
  await page.goto("/");
  const popular = page.locator("section", { has: page.getByRole("heading", { name: "Most Popular" }) });
  const items = popular.getByRole("listitem");
  const count = await items.count();
  expect(count).toBeGreaterThanOrEqual(4);
  for (let i = 0; i < count; i++) {
    await expect(items.nth(i).locator('[aria-hidden="true"]').first()).toHaveText(String(i + 1));
    await expect(items.nth(i).getByRole("heading", { level: 3 }).getByRole("link")).toHaveAttribute("href", /^\/\d{4}\/\d{2}\//);
  }
  const videos = page.locator("section", { has: page.getByRole("heading", { name: "Video", exact: true }) });
  await expect(videos.getByRole("heading", { level: 3 }).first().getByRole("link")).toHaveAttribute("href", /^\/video\/\d+\//);
  const shows = page.locator("section", { has: page.getByRole("heading", { name: "Podcasts" }) });
  await expect(shows.getByRole("heading", { level: 3 }).first().getByRole("link")).toHaveAttribute("href", /^\/podcasts\//);
  await page
    .locator("section", { has: page.getByRole("heading", { name: "Newsletters" }) })
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(/\/email-newsletters$/);
  await page.goto("/");
  await axe(page);
});
