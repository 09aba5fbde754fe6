import path from "node:path";
import type { Page } from "@playwright/test";
import { blockText, parseBody } from "~/server/content/markdown";
import { loadSeedContent } from "~/server/seed/content-source";
import { expect, test } from "./fixtures";

const content = loadSeedContent(path.resolve("content"));
const words = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

/** An article and a word found only in its body, in as few bodies as possible. */
function bodyOnlyWord() {
  // The words shown on cards by their first six letters, and each body's words, read once.
  const shown = new Set(content.articles.flatMap((a) => words([a.title, a.dek, a.subDek, a.summary].join(" ")).map((w) => w.slice(0, 6))));
  const bodies = content.articles.map((a) => new Set(words(a.body)));
  const inBodies = (w: string) => bodies.filter((body) => body.has(w)).length;
  const candidates = content.articles.flatMap((a) =>
    [...new Set(parseBody(a.body).flatMap((b) => words(blockText(b))))]
      .filter((w) => w.length >= 9 && !shown.has(w.slice(0, 6)))
      .map((word) => ({ article: a, word, bodies: inBodies(word) })),
  );
  return candidates.sort((x, y) => x.bodies - y.bodies || x.word.localeCompare(y.word))[0]!;
}

/** Part of a title, as a reader remembers it: its first three words. */
const partOf = (title: string) => title.split(/\s+/).slice(0, 3).join(" ");

async function searchFor(page: Page, text: string) {
  await page.goto("/search");
  await page.getByRole("searchbox", { name: "Search articles, videos, podcasts, magazine issues and the store" }).fill(text);
  await page.getByRole("search", { name: "Search the site" }).getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Results for “${text}”` })).toBeVisible();
}

const results = (page: Page) => page.locator("main ol > li article");

test("finds an article by a word from its body, and shows it only a snippet the reader may read", async ({ page }) => {
  const { article, word } = bodyOnlyWord();
  await searchFor(page, word);
  const hit = results(page).filter({ has: page.getByRole("link", { name: article.title, exact: true }) });
  await expect(hit).toHaveCount(1);
  await hit.getByRole("link", { name: article.title, exact: true }).click();
  await expect(page.locator("h1")).toHaveText(article.title);
});

test("finds a video, a podcast episode, a magazine issue by a featured title and a product, each by part of its title", async ({
  page,
}) => {
  const video = content.media.videos[0]!;
  const episode = content.media.podcasts[0]!.episodes[0]!;
  const feature = content.magazine.features[0]!.title;
  const product = content.store.products[0]!;
  const cases = [
    { text: partOf(video.title), kind: "video", title: video.title, opens: /\/video\/\d+\// },
    { text: partOf(episode.title), kind: "podcast", title: episode.title, opens: /\/podcasts\/[a-z0-9-]+\/\d+-[a-z0-9-]+$/ },
    { text: partOf(feature), kind: "issue", title: null, opens: /\/archive-toc\/\d+$/ },
    { text: partOf(product.title), kind: "product", title: product.title, opens: /\/product\/[a-z0-9-]+\/\d+/ },
  ];
  for (const c of cases) {
    await searchFor(page, c.text);
    const ofKind = results(page).and(page.locator(`[data-result-kind="${c.kind}"]`));
    const hit = c.title
      ? ofKind.filter({ has: page.getByRole("link", { name: c.title, exact: true }) })
      : ofKind.filter({ hasText: feature });
    await expect(hit.first(), `${c.kind}: ${c.text}`).toBeVisible();
    await hit.first().getByRole("heading").getByRole("link").click();
    await expect(page).toHaveURL(c.opens);
    if (c.kind === "issue") await expect(page.locator("main")).toContainText(feature);
  }
});

test("filters by type, topic and years, sorts by newest, and pages with the more-results referral code", async ({
  page,
  js,
  browserErrors,
}) => {
  // Each ticked box starts a navigation that replaces the one before. When the browser ends the
  // replaced one while Remix is reading its data, Remix's single fetch leaves that read's abort
  // unhandled (remix-run/react-router#14203): the page is right, only the console says so.
  browserErrors.allow(/^\/search: AbortError: BodyStreamBuffer was aborted$/);
  await page.goto("/search?q=strategy");
  const filters = page.getByRole("group", { name: "Filter results" });
  const apply = async () => {
    // With JS a ticked box applies itself; without, the reader presses the button.
    if (!js) await filters.getByRole("button", { name: "Apply filters" }).click();
  };

  await filters.getByRole("checkbox", { name: /^Magazine issues/ }).check();
  await apply();
  await expect(page).toHaveURL(/type=issue/);
  // With JS the list is replaced in place once the new results arrive.
  await expect
    .poll(() => results(page).evaluateAll((els) => els.length > 0 && els.every((e) => e.getAttribute("data-result-kind") === "issue")))
    .toBe(true);

  await filters.getByRole("checkbox", { name: /^Magazine issues/ }).uncheck();
  await filters.getByRole("checkbox", { name: /^Articles/ }).check();
  await apply();
  await expect(page).toHaveURL(/type=article/);
  const topic = filters.getByRole("radio").nth(1);
  const topicName = (await topic.evaluate((el) => el.parentElement!.textContent!)).replace(/[\d,]+$/, "").trim();
  await topic.check();
  await apply();
  await expect(page).toHaveURL(/topic=[a-z-]+/);
  await expect(filters.getByRole("radio", { name: topicName })).toBeChecked();

  await page.goto("/search?q=strategy");
  await filters.getByLabel("From year").fill("1970");
  await filters.getByLabel("To year").fill("1979");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/from=1970&to=1979/);
  const yearsShown = () =>
    results(page).evaluateAll((els) =>
      els.map((e) =>
        Number(
          e.querySelector("h3")!.textContent!.match(/(19|20)\d\d/)?.[0] ?? e.querySelector("time")!.getAttribute("datetime")!.slice(0, 4),
        ),
      ),
    );
  await expect.poll(async () => (await yearsShown()).length > 0 && (await yearsShown()).every((y) => y >= 1970 && y <= 1979)).toBe(true);

  await page.goto("/search?q=strategy");
  await page.getByRole("navigation", { name: "Sort results" }).getByRole("link", { name: "Newest" }).click();
  await expect(page).toHaveURL(/sort=newest/);
  await expect(page.getByRole("navigation", { name: "Sort results" }).getByText("Newest")).toHaveAttribute("aria-current", "true");
  const dates = await results(page)
    .locator("time")
    .evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
  expect(dates.length).toBeGreaterThan(1);
  expect(dates).toEqual([...dates].sort().reverse());

  const more = page.getByRole("link", { name: "Load more items" });
  await expect(more).toHaveAttribute("href", /referral=02749/);
  await expect(page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" })).toHaveAttribute(
    "href",
    /referral=02749/,
  );
  await more.click();
  await expect(results(page)).toHaveCount(20);
});

test("shows the topics that match above the results, a clear answer for nothing found, and passes axe", async ({ page, axe }) => {
  await page.goto("/search?q=leadership");
  const topics = page.getByRole("heading", { name: "Topics", exact: true }).locator("..");
  await expect(topics.getByRole("link", { name: "Leadership & Managing People" })).toBeVisible();
  await axe(page);
  await page.goto(`/search?q=${encodeURIComponent('"unclosed ((* OR')}`);
  await expect(page.locator("main")).toContainText("No results for");
  await page.goto("/search?q=zzqxqzz");
  await expect(page.locator("main")).toContainText("No results for “zzqxqzz”");
});

test("lists a cover story that ran on several issues once, with links to the issues it also ran on", async ({ page }) => {
  // The seed's archive runs "Knowledge Management" as the cover story of more than one issue.
  await searchFor(page, "knowledge management");
  const issues = results(page).and(page.locator('[data-result-kind="issue"]'));
  const grouped = issues.filter({ hasText: /Also the cover story of \d+ other issues?:/ }).first();
  await expect(grouped).toBeVisible();
  const line = grouped.locator("p", { hasText: "Also the cover story of" });
  const others = Number(/of (\d+) other/.exec(await line.innerText())![1]);
  expect(others).toBeGreaterThan(0);
  const links = line.getByRole("link");
  await expect(links).toHaveCount(others);
  // Listed once: no other issue on the page has the same cover story. Its heading is "Cover story (Month Year)".
  const cover = (await grouped.getByRole("heading").innerText()).replace(/ \(.*\)$/, "").trim();
  const sameCover = issues.filter({
    has: page.getByRole("heading", { name: new RegExp(`^${cover.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(`) }),
  });
  await expect(sameCover).toHaveCount(1);
  const when = await links.first().innerText();
  await links.first().click();
  await expect(page).toHaveURL(/\/archive-toc\/\d+$/);
  await expect(page.locator("h1")).toHaveText(cover);
  await expect(page.locator("main")).toContainText(when);
});
