import { expect, firstArticlePath, test } from "./fixtures";

test("the text-size toggle enlarges the article text and is remembered", async ({ page }) => {
  const path = await firstArticlePath(page);
  await page.goto(path);
  const body = page.locator("#article-body p").nth(1);
  const before = await body.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const toggle = page.getByRole("button", { name: "Larger text" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  // With JS the button shows the new size while the preference is still being saved: reload only once it is.
  const saved = page.waitForResponse((r) => r.url().includes("/preferences/text-size") && r.request().method() === "POST");
  await toggle.click();
  await saved;
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  const after = await body.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(after).toBeGreaterThan(before);
  await page.reload();
  await expect(page.getByRole("button", { name: "Larger text" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Larger text" }).click();
  await expect(page.getByRole("button", { name: "Larger text" })).toHaveAttribute("aria-pressed", "false");
});

test("the summary collapses and expands", async ({ page }) => {
  await page.goto(await firstArticlePath(page));
  const summaryText = page.locator("details p");
  await expect(summaryText).toBeVisible();
  await page.getByText("Summary", { exact: true }).click();
  await expect(summaryText).toBeHidden();
  await page.getByText("Summary", { exact: true }).click();
  await expect(summaryText).toBeVisible();
});

test("series navigation links the parts of a series", async ({ page }) => {
  await page.goto("/topic/subject/artificial-intelligence");
  await page.getByRole("link", { name: "Start With the Work, Not the Model" }).first().click();
  const series = page.getByRole("navigation", { name: "Series" });
  await expect(series).toContainText("part 1 of 3");
  await series.getByRole("link").nth(1).click();
  await expect(page.getByRole("navigation", { name: "Series" })).toContainText("part 3 of 3");
});

test("the promo sits about half way through the body", async ({ page }) => {
  await page.goto(await firstArticlePath(page));
  const position = await page.evaluate(() => {
    const body = document.getElementById("article-body")!;
    const promo = body.querySelector("aside[aria-label='From the store']")!;
    const rect = body.getBoundingClientRect();
    return (promo.getBoundingClientRect().top - rect.top) / rect.height;
  });
  expect(position).toBeGreaterThan(0.3);
  expect(position).toBeLessThan(0.7);
});

test("the title bar appears after 300 px of scrolling with JS, and never repeats the headline to a text browser or screen reader", async ({
  page,
  js,
}) => {
  await page.goto(await firstArticlePath(page));
  const headline = (await page.locator("h1").textContent())!;
  const bar = page.locator("[aria-hidden=true]", { hasText: headline });
  await page.mouse.wheel(0, 1200);
  await expect(page.locator("h1")).not.toBeInViewport();
  if (js) {
    await expect(bar).toHaveAttribute("data-visible", "");
    await expect(bar).toBeInViewport();
  } else {
    // A text browser shows every element of the document: the bar is not in it.
    await expect(bar).toHaveCount(0);
  }
  // What a screen reader reads: the headline as the page's heading, and not again as text.
  const tree = await page.locator("body").ariaSnapshot();
  expect(tree).toContain(`heading "${headline}" [level=1]`);
  expect(tree).not.toContain(`text: ${headline}`);
});

test("a series article lists the reading lists it appears in", async ({ page }) => {
  await page.goto("/topic/subject/artificial-intelligence");
  await page.getByRole("link", { name: "Start With the Work, Not the Model" }).first().click();
  const related = page.getByRole("complementary", { name: "Related" });
  await expect(related.getByRole("heading", { name: "THIS ARTICLE APPEARS IN" })).toBeVisible();
  await expect(related.getByText("Building the AI-Ready Company")).toBeVisible();
});

test("the body comes once, in the HTML, and stays whole when the page's data is reloaded", async ({ page, js }) => {
  const path = await firstArticlePath(page);
  await page.goto(path);
  const body = page.locator("#article-body");
  const text = (await body.textContent()) ?? "";
  const paragraphs = await body.locator("p").count();
  expect(paragraphs).toBeGreaterThan(3);
  // Not again in the data the page hydrates from (its inline scripts).
  const firstParagraph = (await body.locator("p").first().innerText()).slice(0, 80);
  const inlineScripts = await page.evaluate(() => [...document.scripts].map((s) => s.textContent ?? "").join("\n"));
  expect(inlineScripts).not.toContain(firstParagraph);

  // Changing the text size reloads the page's data with JS (and the page without).
  const reloaded = js ? page.waitForResponse((r) => r.url().includes(".data") && r.request().method() === "GET") : Promise.resolve();
  await page.getByRole("button", { name: "Larger text" }).click();
  await reloaded;
  await expect(page.getByRole("button", { name: "Larger text" })).toHaveAttribute("aria-pressed", "true");
  await expect(body.locator("p")).toHaveCount(paragraphs);
  await expect(body).toHaveText(text);
});
