import fs from "node:fs";
import type { Download, Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./fixtures";

// What a subscription adds to an article page, with and without JavaScript: gift links (and
// what they open for a guest), the PDF reprint, visual-library charts and notes; and that a
// reader without a subscription gets none of it.

const gated = (page: Page) => page.locator("#article-body .paywalled-content");
const giftSection = (page: Page) => page.locator("section#gift");
const notesSection = (page: Page) => page.locator("section#notes");

/** Article paths from the latest stream, leaving out Ascend pages (they have a meter of their own). */
async function meteredArticlePaths(page: Page, count: number): Promise<string[]> {
  await page.goto("/ascend");
  const ascend = new Set(await page.locator("main article h3 a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))));
  await page.goto("/the-latest");
  const hrefs = await page.locator("main ol article h3 a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  const paths = hrefs.filter((href): href is string => Boolean(href) && !ascend.has(href));
  if (paths.length < count) throw new Error(`only ${paths.length} metered articles found`);
  return paths.slice(0, count);
}

async function downloaded(download: Download): Promise<Buffer> {
  return fs.readFileSync(await download.path());
}

test("a subscriber gifts an article; the link opens it for a metered-out guest until it is revoked", async ({
  page,
  browser,
  js,
  axe,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn(uniqueEmail("giver"), { plan: "digital" });
  const articles = await meteredArticlePaths(page, 5);
  const gifted = articles[4]!;

  await page.goto(gifted);
  await expect(giftSection(page).getByText("5 gifts left this month")).toBeVisible();
  await giftSection(page).getByRole("button", { name: "Gift this article" }).click();
  await expect(giftSection(page).getByRole("status").filter({ hasText: "Your gift link is ready." })).toBeVisible();
  await expect(giftSection(page).getByText("4 gifts left this month")).toBeVisible();
  const link = giftSection(page).getByLabel("Gift link");
  await expect(link).toHaveValue(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${gifted}\\?gift=[A-Za-z0-9_-]{43}$`));
  await expect(link).toHaveAttribute("readonly", "");
  const giftUrl = await link.inputValue();
  if (js) {
    // Made in place by the fetcher (the page form's redirect would have come back to #gift).
    expect(page.url()).not.toContain("#gift");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await giftSection(page).getByRole("button", { name: "Copy link" }).click();
    await expect(giftSection(page).getByText("Link copied.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(giftUrl);
  } else {
    await expect(page).toHaveURL(new RegExp(`${gifted}#gift$`));
    await expect(giftSection(page).getByRole("button", { name: "Copy link" })).toHaveCount(0);
  }
  await axe(page);

  // A guest with no account reads four free articles; the fifth is walled, but the gift opens it.
  const guest = await browser.newContext({ javaScriptEnabled: js });
  const guestPage = await guest.newPage();
  for (const path of articles.slice(0, 4)) {
    await guestPage.goto(path);
    await expect(gated(guestPage)).toHaveCount(1);
  }
  await guestPage.goto(gifted);
  await expect(gated(guestPage)).toHaveCount(0);
  const giftResponse = await guestPage.goto(giftUrl);
  expect(giftResponse?.headers()["cache-control"]).toBe("no-store");
  await expect(gated(guestPage)).toHaveCount(1);
  await expect(guestPage.locator("#paywall")).toHaveCount(0);
  await expect(giftSection(guestPage)).toHaveCount(0);

  // Revoked on the account page, the link no longer opens the full text.
  await page.goto("/my-account");
  await page.getByRole("link", { name: "Your gift links" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your gift links" })).toBeVisible();
  await expect(page.getByText(/^Gifted on .+\. Active\.$/)).toBeVisible();
  await axe(page);
  await page.getByRole("button", { name: /^Revoke the gift link for “.+”, gifted on / }).click();
  await expect(page.locator("main").getByRole("status")).toHaveText("Gift link revoked.");
  await expect(page.getByText(/^Gifted on .+\. Revoked\.$/)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);

  await guestPage.goto(giftUrl);
  await expect(gated(guestPage)).toHaveCount(0);
  await expect(guestPage.locator("#paywall")).toBeVisible();
  await guest.close();
});

test("the last gift of the month leaves the link shown, the copy button hidden and the form gone", async ({ page, signIn }) => {
  await signIn(uniqueEmail("allowance"), { plan: "digital" });
  const [path] = await meteredArticlePaths(page, 1);
  await page.goto(path!);
  for (const left of [4, 3, 2, 1]) {
    await giftSection(page).getByRole("button", { name: "Gift this article" }).click();
    await expect(giftSection(page).getByText(`${left} ${left === 1 ? "gift" : "gifts"} left this month`)).toBeVisible();
  }
  const previous = await giftSection(page).getByLabel("Gift link").inputValue();
  await giftSection(page).getByRole("button", { name: "Gift this article" }).click();
  await expect(giftSection(page).getByText("You have no gifts left this month.")).toBeVisible();
  await expect(giftSection(page).getByLabel("Gift link")).not.toHaveValue(previous);
  await expect(giftSection(page).getByLabel("Gift link")).toHaveValue(/\?gift=/);
  await expect(giftSection(page).getByRole("button", { name: "Copy link" })).toHaveCount(0);
  await expect(giftSection(page).getByRole("button", { name: "Gift this article" })).toHaveCount(0);

  // A replayed post is refused and makes no link.
  const replay = await page.request.post("/api/article-gift/give-gift", {
    form: { url: path! },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(replay.status()).toBe(409);
  expect(await replay.json()).toEqual({ code: "no_gifts_left", message: "You have no gifts left this month.", articleGiftsLeft: 0 });
});

test("a subscriber downloads a PDF reprint and a visual-library chart as SVG and PNG; another reader's chart address is refused", async ({
  page,
  signIn,
}) => {
  await signIn(uniqueEmail("downloads"), { plan: "digital" });
  const [path] = await meteredArticlePaths(page, 1);
  await page.goto(path!);
  await expect(page.getByRole("link", { name: /^Download this chart/ })).toHaveCount(0);
  const [reprint] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF reprint" }).click()]);
  expect(reprint.suggestedFilename()).toBe(`${path!.split("/").pop()}.pdf`);
  expect((await downloaded(reprint)).subarray(0, 5).toString("latin1")).toBe("%PDF-");

  await page.goto("/visual-library");
  const chartArticle = await page.locator("main article h3 a").first().getAttribute("href");
  await page.goto(chartArticle!);
  const slug = chartArticle!.split("/").pop();
  // The page shows the chart itself, and says what it shows.
  const hero = page.locator("main header img");
  await expect(hero).toHaveAttribute("src", `/art/chart/${slug}.svg`);
  await expect(hero).toHaveAttribute("alt", /^Chart: .+\. From \d{4} to \d{4}\./);
  expect(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);

  const svgLink = page.getByRole("link", { name: "Download this chart (SVG)" });
  const [svg] = await Promise.all([page.waitForEvent("download"), svgLink.click()]);
  expect(svg.suggestedFilename()).toBe(`${slug}.svg`);
  const svgText = (await downloaded(svg)).toString("utf8");
  expect(svgText).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svgText).toContain('role="img"');
  expect(svgText).toContain('<title id="chart-title">');

  const pngLink = page.getByRole("link", { name: "Download this chart (PNG, 2,400 × 1,350 pixels)" });
  const [png] = await Promise.all([page.waitForEvent("download"), pngLink.click()]);
  expect(png.suggestedFilename()).toBe(`${slug}.png`);
  const pngBytes = await downloaded(png);
  expect(pngBytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)]).toEqual([2400, 1350]);

  for (const link of [svgLink, pngLink]) {
    const someoneElses = (await link.getAttribute("href"))!.replace(
      /\/visual-library\/download\/[^/]+\//,
      "/visual-library/download/00000000-0000-4000-8000-000000000000/",
    );
    const refused = await page.request.get(someoneElses, { maxRedirects: 0 });
    expect(refused.status()).toBe(403);
  }
});

test("a registered reader without a subscription gets no subscriber controls, and is refused", async ({ page, axe, signIn }) => {
  const { userId } = await signIn(uniqueEmail("no-sub"));
  const [path] = await meteredArticlePaths(page, 1);
  await page.goto(path!);
  await expect(gated(page)).toHaveCount(1);
  await expect(giftSection(page)).toHaveCount(0);
  await expect(notesSection(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Gift this article" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Download PDF reprint" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Add a note" })).toHaveCount(0);

  const origin = new URL(page.url()).origin;
  const gift = await page.request.post("/article-gift", {
    form: { url: path! },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(gift.status()).toBe(403);
  const json = await page.request.post("/api/article-gift/give-gift", {
    form: { url: path! },
    headers: { Origin: origin },
  });
  expect(json.status()).toBe(403);
  expect(await json.json()).toEqual({ code: "not_a_subscriber", message: "This service is for subscribers." });
  const note = await page.request.post(path!, {
    form: { intent: "add-note", paragraph: "0", note: "Mine" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(note.status()).toBe(403);

  // Their own chart address, in either format, leads to the same offer.
  await page.goto("/visual-library");
  const chartSlug = (await page.locator("main article h3 a").first().getAttribute("href"))!.split("/").pop()!;
  for (const asset of [chartSlug, `${chartSlug}.png`]) {
    const chart = await page.request.get(`/visual-library/download/${userId}/${asset}`, { maxRedirects: 0 });
    expect(chart.status(), asset).toBe(302);
    expect(chart.headers().location, asset).toMatch(/^\/subscriber-only\?feature=chart&from=/);
  }

  // The reprint address: a page inside the site that says why and offers a subscription.
  const response = await page.goto("/download/subscriber/reprint/R1");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Subscribers only" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See subscription options" })).toHaveAttribute("href", "/subscriptions");
  await expect(page.locator("header[data-site-header]")).toBeVisible();
  await axe(page);
});

test("a subscriber adds a note, finds it on the article and in their notes, and deletes it", async ({ page, js, axe, signIn }) => {
  await signIn(uniqueEmail("notes"), { plan: "digital" });
  const [path] = await meteredArticlePaths(page, 1);
  await page.goto(path!);
  const notes = notesSection(page);
  await expect(notes.getByText("You have no notes on this article yet.")).toBeVisible();

  // An empty note: the annotations module's message, inline and in the summary.
  await notes.getByRole("button", { name: "Save note" }).click();
  await expect(page.locator("main").getByRole("alert").getByRole("link", { name: "Write a note before saving." })).toBeVisible();
  await expect(notes.locator("#add-note-note-error")).toHaveText("Write a note before saving.");
  await expect(notes.getByLabel("Note", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await axe(page);

  const paragraph = notes.getByLabel("Paragraph");
  let chosen: number;
  if (js) {
    // Selecting words in a paragraph of the body fills in its number and the quote.
    const selected = await page.evaluate(() => {
      const blocks = [...document.querySelector("#article-body > div")!.children];
      const index = blocks.findIndex((b, i) => i > 0 && b.tagName === "P");
      const text = blocks[index]!.firstChild!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 20);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
      blocks[index]!.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
      return { index, words: range.toString().trim() };
    });
    chosen = selected.index;
    await expect(paragraph).toHaveValue(String(chosen));
    await expect(notes.getByLabel("Quoted passage (optional)")).toHaveValue(selected.words);
  } else {
    chosen = 1;
    await paragraph.selectOption(String(chosen));
    await notes.getByLabel("Quoted passage (optional)").fill("the quoted words");
  }
  const quote = await notes.getByLabel("Quoted passage (optional)").inputValue();
  await notes.getByLabel("Note", { exact: true }).fill("Compare with last quarter.");
  await notes.getByRole("button", { name: "Save note" }).click();
  await expect(notes.getByRole("status")).toHaveText("Your note has been saved.");
  const saved = notes.getByRole("listitem").filter({ hasText: "Compare with last quarter." });
  await expect(saved.getByText(`Paragraph ${chosen + 1}`, { exact: true })).toBeVisible();
  await expect(saved.locator("blockquote")).toHaveText(quote);
  await expect(notes.getByLabel("Note", { exact: true })).toHaveValue("");

  await page.goto("/my-account/notes");
  await expect(page.getByRole("heading", { level: 1, name: "Your notes" })).toBeVisible();
  const entry = page.getByRole("listitem").filter({ hasText: "Compare with last quarter." });
  await expect(entry.getByRole("link")).toHaveAttribute("href", `${path}#notes`);
  await axe(page);

  await entry.getByRole("link").click();
  await notesSection(page)
    .getByRole("button", { name: `Delete note on paragraph ${chosen + 1}` })
    .click();
  await expect(notesSection(page).getByRole("status")).toHaveText("Your note has been deleted.");
  await expect(notesSection(page).getByText("You have no notes on this article yet.")).toBeVisible();
  await page.goto("/my-account/notes");
  await expect(page.getByText("You have no notes yet.")).toBeVisible();
});
