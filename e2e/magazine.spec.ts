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
