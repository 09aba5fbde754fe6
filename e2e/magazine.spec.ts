import { expect, test } from "./fixtures";

test("the issue finder goes to the chosen issue", async ({ page, js }) => {
  await page.goto("/magazine");
  const finder = page.getByRole("form", { name: "Issue finder" }).or(page.locator("form[aria-label='Issue finder']"));
  await expect(finder.getByLabel("Year")).toHaveValue("2025");
  await finder.getByLabel("Year").selectOption("1987");
  if (js) {
    // With JS the year change shows that year's issues at once.
    await expect(page).toHaveURL(/year=1987/);
    await expect(page.getByRole("heading", { name: "Issues of 1987" })).toBeVisible();
    await finder.getByLabel("Issue").selectOption({ label: "May–June" });
  } else {
    await finder.getByLabel("Issue").selectOption({ index: 2 });
    await finder.getByRole("button", { name: "Go to issue" }).click();
  }
  await expect(page).toHaveURL(/\/archive-toc\/8705$/);
  await expect(page.getByText("May–June 1987")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Featuring" })).toBeVisible();
});

test("the issue finder opens the issue chosen in a year that has other issues than the year on screen", async ({ page, js }) => {
  await page.goto("/magazine");
  const finder = page.locator("form[aria-label='Issue finder']");
  // 2025 comes out every two months; 2010 ten times a year.
  await finder.getByLabel("Year").selectOption("2010");
  if (js) {
    await expect(page.getByRole("heading", { name: "Issues of 2010" })).toBeVisible();
    await finder.getByLabel("Issue").selectOption({ label: "September" });
  } else {
    // Without JS the month list is still 2025's: its September–October means 2010's September.
    await finder.getByLabel("Issue").selectOption({ label: "September–October" });
    await finder.getByRole("button", { name: "Go to issue" }).click();
  }
  await expect(page).toHaveURL(/\/archive-toc\/BR1009$/);
  await expect(page.getByText("September 2010")).toBeVisible();
});

test("an issue links to the issues before and after it", async ({ page }) => {
  await page.goto("/archive-toc/5601");
  await expect(page.getByRole("link", { name: /Previous issue/ })).toHaveCount(0);
  await page.getByRole("link", { name: /Next issue/ }).click();
  await expect(page).toHaveURL(/\/archive-toc\/5603$/);
  await expect(page.getByRole("img", { name: /Cover of the March–April 1956 issue/ })).toBeVisible();
});

test("the archive shows a year's issues with covers, summaries and features", async ({ page }) => {
  await page.goto("/magazine");
  await page.getByRole("navigation", { name: "Archive years" }).getByRole("link", { name: "1974" }).click();
  await expect(page.getByRole("heading", { name: "Issues of 1974" })).toBeVisible();
  // 1974 lost its March–April issue.
  await expect(page.locator("main ul li article")).toHaveCount(5);
  await expect(page.getByText("Featuring").first()).toBeVisible();
});

test("each feature's bullet sits on the first line of its title, however many lines the title takes", async ({ page }) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/magazine");
    const titles = await page.locator("main article ul li").evaluateAll((items) =>
      items.map((item) => {
        // The bullet is drawn on the item's first line: a mark put at the item's start sits on that line.
        const mark = document.createElement("span");
        mark.textContent = "\u200b";
        item.prepend(mark);
        const bullet = mark.getBoundingClientRect();
        mark.remove();
        const text = document.createTreeWalker(item, NodeFilter.SHOW_TEXT).nextNode()!;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = [...range.getClientRects()];
        const middle = (r: DOMRect) => r.top + r.height / 2;
        return { text: item.textContent, bullet: middle(bullet), firstLine: middle(lines[0]!), wrapped: lines.length > 1 };
      }),
    );
    expect(titles.filter((t) => t.wrapped).length, `titles that wrap at ${width} px`).toBeGreaterThan(0);
    for (const t of titles) expect(Math.abs(t.bullet - t.firstLine), `${t.text} at ${width} px`).toBeLessThanOrEqual(2);
  }
});
