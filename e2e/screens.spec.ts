import fs from "node:fs";
import type { Page } from "@playwright/test";
import { createArticle, listRevisions, saveArticle } from "~/server/desk/articles";
import { previewToken } from "~/server/desk/articles/preview";
import { COMMAND_LINE, type AuditActor } from "~/server/desk/audit";
import { chooseHomeStories, homeCuration } from "~/server/desk/curation";
import { totpCode } from "~/server/desk/totp";
import { signIn as checkPassword } from "~/server/accounts/sign-in";
import { logMail } from "~/server/adapters/mail-log";
import { jpegOf, pngOf } from "~/tests/helpers/images";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { fulfilLines } from "~/server/store/fulfilment/shipments";
import { markOrderPaid } from "~/server/store/order-payment";
import { schedulePrice } from "~/server/desk/products";
import { enrolledStaff, newStaff, secretOnPage, signInThroughPage } from "./staff";
import { addToCart, createReader, expect, fillAddress, subscribeThroughCheckout, test, uniqueEmail } from "./fixtures";
import type { Site } from "./site";
import { SCREENSHOT_WIDTHS, screenPath, screenshot, shoot, WIDTHS } from "./shoot";

// One screenshot of every page type at a phone's width and a laptop's, for a person to look at
// (e2e/shoot.ts). Each page must answer, have its heading, and be no wider than the screen at 320,
// 390, 768 and 1280 px. A state another spec sets up (a declined renewal) is shot there.
async function firstLink(page: Page, from: string, pattern: RegExp): Promise<string> {
  await page.goto(from);
  const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  const href = hrefs.find((h) => pattern.test(h));
  if (!href) throw new Error(`no link matching ${pattern} on ${from}`);
  return href;
}

/** The Slow Turn's page, which content/store.json seeds coming soon. */
const PREORDER = /^\/product\/the-slow-turn\/\d+$/;

// A page's address, or where to find it: the first link on a page that matches.
type Address = string | { from: string; link: RegExp };

// In groups, so the workers share them out.
const GUEST_PAGES: Record<string, [string, Address][]> = {
  "home and streams": [
    ["home", "/"],
    ["article", { from: "/the-latest", link: /^\/\d{4}\/\d{2}\// }],
    ["stream", "/the-latest"],
    ["topics", "/topics"],
    ["topic", { from: "/topics", link: /^\/topic\// }],
    ["search", "/search?q=strategy"],
  ],
  "magazine, video and podcasts": [
    ["magazine", "/magazine"],
    ["magazine-issue", { from: "/magazine", link: /^\/archive-toc\// }],
    ["video-index", "/video"],
    ["video", { from: "/video", link: /^\/video\/\d+/ }],
    ["podcasts", "/podcasts"],
    ["podcast", { from: "/podcasts", link: /^\/podcasts\/[^/?]+$/ }],
    ["podcast-episode", { from: "/podcasts/the-long-way-back", link: /^\/podcasts\/[^/?]+\/\d+-/ }],
  ],
  store: [
    ["store", "/store"],
    ["store-chosen", "/store?format=pdf&sort=price-low"],
    ["store-empty", "/store?q=nonesuchword"],
    // The seeded coming-soon book (a year after seeding, so always ahead): "Pre-order" beside its date.
    ["product", { from: "/store", link: PREORDER }],
    ["product-better-together", "/product/the-patient-ledger/1001"],
    ["shopping-cart", "/shopping-cart"],
  ],
  "subscribing, signing in and reading lists": [
    ["subscriptions", "/subscriptions"],
    ["newsletters", "/email-newsletters"],
    ["sign-in", "/sign-in"],
    ["register", "/register"],
    ["reading-lists", "/reading-lists"],
    ["reading-list", "/reading-lists/leading-through-reorganization"],
  ],
};

for (const [group, pages] of Object.entries(GUEST_PAGES)) {
  test(`every page type, as a guest (${group}), fits the screen from 320 to 1280 px`, async ({ page }, testInfo) => {
    for (const [name, address] of pages) {
      const at = typeof address === "string" ? address : await firstLink(page, address.from, address.link);
      await shoot(page, testInfo.project.name, name, at);
    }
  });
}

test("a guest's cart holding a pre-order fits the screen from 320 to 1280 px", async ({ page }, testInfo) => {
  await page.goto(await firstLink(page, "/store", PREORDER));
  await page.getByRole("button", { name: "Pre-order" }).first().click();
  await expect(page.getByText(/^Coming soon: Available /)).toBeVisible();
  await shoot(page, testInfo.project.name, "shopping-cart-preorder", "/shopping-cart");
  await expect(page.getByText(/^Pre-order: Available /)).toBeVisible();
});

test("a subscriber's own pages fit the screen from 320 to 1280 px", async ({ page, signIn }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(uniqueEmail("screens"), { plan: "digital" });
  for (const [name, address] of [
    ["my-library", "/my-library"],
    ["my-account", "/my-account"],
    ["my-account-data", "/my-account/data"],
    ["my-account-delete", "/my-account/delete"],
  ] as const) {
    await shoot(page, testInfo.project.name, name, address);
  }
});

test("Subscription and billing, with a plan bought through the sandbox, fits the screen from 320 to 1280 px", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await subscribeThroughCheckout(page, "screens-billing");
  await shoot(page, testInfo.project.name, "billing", "/my-account/billing");
  await shoot(page, testInfo.project.name, "billing-cancel", "/my-account/billing/cancel");
  await shoot(page, testInfo.project.name, "billing-card", "/my-account/billing/card");
  await shoot(page, testInfo.project.name, "billing-plans", "/my-account/billing/plan");
  await shoot(page, testInfo.project.name, "billing-upgrade", "/my-account/billing/plan?to=executive");
});

test("the subscription checkout's billing address and review steps fit the screen from 320 to 1280 px", async ({
  page,
  signIn,
}, testInfo) => {
  const project = testInfo.project.name;
  await signIn(uniqueEmail("screens-subscribe"));
  await shoot(page, project, "subscription-checkout-address", "/subscriptions/checkout?plan=digital");
  // The review step, billed where sales tax is due: the price with its tax, to the cent.
  await shoot(page, project, "subscription-checkout-review", "/subscriptions/checkout?plan=digital&countryCode=US&region=NY");
  await expect(page.getByText("Tax (NY 4%)").first()).toBeVisible();
});

test("every checkout step, signed in with a print item and an ebook in the cart, fits the screen from 320 to 1280 px", async ({
  page,
  signIn,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await signIn(uniqueEmail("screens-checkout"));
  for (const product of ["/product/the-patient-ledger/1001", "/product/the-patient-ledger/1002"]) await addToCart(page, product);
  await shoot(page, project, "shopping-cart-full", "/shopping-cart");
  await shoot(page, project, "shipping-payment", "/shipping-payment");

  await fillAddress(page);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Review your order" })).toBeVisible();
  await shoot(page, project, "review-order", "/review-order");

  await page.getByRole("button", { name: /^Place order: \$/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox checkout" })).toBeVisible();
  await shoot(page, project, "sandbox-checkout", new URL(page.url()).pathname);
  await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Order MR-/ })).toBeVisible();
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  await shoot(page, project, "order", `/order/${orderId}`);

  // A guest lands on the thanks page; the signed-in buyer can open it with the order's key.
  const { access_token } = await site.db
    .selectFrom("store_order")
    .select("access_token")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await shoot(page, project, "registration-complete", `/registration-complete?order=${orderId}&key=${access_token}`);
});

test("the reading-list dialog over an article fits the screen from 320 to 1280 px", async ({ page, js }, testInfo) => {
  const article = await firstLink(page, "/reading-lists/leading-through-reorganization", /^\/\d{4}\/\d{2}\//);
  await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
  await page.goto(article.split("?")[0]!);
  await page.getByRole("complementary", { name: "Related" }).getByRole("link", { name: "Leading Through Reorganization" }).click();
  // Without JS the link leads to the list's page, which the test above covers.
  const dialog = page.getByRole("dialog", { name: "Leading Through Reorganization" });
  const firstItem = js ? dialog.locator("ol > li h3 a").first() : page.locator("main ol > li h2 a").first();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect(firstItem, `${width} px`).toBeVisible();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector("dialog")?.scrollWidth ?? 0]);
    for (const w of widths) expect(w, `${width} px`).toBeLessThanOrEqual(width);
    if (SCREENSHOT_WIDTHS.includes(width)) {
      await page.screenshot({
        path: screenPath(testInfo.project.name, "reading-list-dialog", width),
        animations: "disabled",
      });
    }
  }
});

test("the desk's door, staff, audit and article pages, for an admin, fit the screen from 320 to 1280 px", async ({
  page,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const admin = await newStaff(site, "screens-desk", ["admin"]);
  const colleague = await newStaff(site, "screens-desk-editor", ["editor", "store"]);
  await signInThroughPage(page, admin.email);
  await shoot(page, project, "desk-enrol", admin.link);
  const secret = await secretOnPage(page);
  await page.getByLabel("Code from your app", { exact: true }).fill(totpCode(secret, new Date()));
  await page.getByRole("button", { name: "Set up and enter the desk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your second factor", exact: true })).toBeVisible();
  await screenshot(page, project, "desk-recovery-codes", 1280);

  const colleagueId = await site.db.selectFrom("app_user").select("id").where("email", "=", colleague.email).executeTakeFirstOrThrow();
  await shoot(page, project, "desk", "/desk");
  await shoot(page, project, "desk-security", "/desk/security");
  await shoot(page, project, "desk-staff", "/desk/staff");
  await shoot(page, project, "desk-staff-member", `/desk/staff/${colleagueId.id}`);
  await shoot(page, project, "desk-audit", "/desk/audit");
  await shootArticlePages(page, site, project, { id: colleagueId.id, label: colleague.email });
  await page.goto("/desk");
  await page.getByRole("button", { name: "Leave the desk" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await shoot(page, project, "desk-verify", "/desk/verify");
  // A draft's preview (ADR 079), at the wall and as a subscriber: its private link needs no desk session.
  const draft = await createArticle(
    site.db,
    COMMAND_LINE,
    {
      title: "What a preview shows before anyone can read it",
      dek: "The article page as readers will see it, with the desk's banner above.",
      subDek: "",
      summary: "A draft shown through the site's own article page in the preview's views.",
      body: Array.from({ length: 6 }, (_, i) => `Paragraph ${i + 1} of a draft that only the desk has seen so far.`).join("\n\n"),
      slug: `screens-preview-${project}`,
      authors: ["samira-castellanos"],
      topics: ["Managing Yourself"],
      contentType: "Article",
      tier: "article",
      series: null,
      seriesTitle: null,
      seriesPart: null,
      streams: [],
      published: "2026-03-10",
    },
    new Date(),
  );
  if (!draft.ok) throw new Error(`the preview's draft was refused: ${JSON.stringify(draft)}`);
  const preview = `/preview/${previewToken(draft.article.id, new Date(), site.sessionSecret)}`;
  await shoot(page, project, "desk-preview-wall", `${preview}?view=wall`);
  await shoot(page, project, "desk-preview-subscriber", `${preview}?view=subscriber`);
});

test("the desk's authors, topics, home page and reading lists, for an admin, fit the screen from 320 to 1280 px", async ({
  page,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await enrolledStaff(page, site, "screens-desk-catalogue", ["admin"]);
  await shoot(page, project, "desk-authors", "/desk/authors");
  await shoot(page, project, "desk-authors-search", "/desk/authors?q=professor");
  await shoot(page, project, "desk-author-new", "/desk/authors/new");
  await shoot(page, project, "desk-author", "/desk/authors/1");
  await shoot(page, project, "desk-topics", "/desk/topics");
  await shoot(page, project, "desk-topic-new", "/desk/topics/new");
  await shoot(page, project, "desk-topic", "/desk/topics/20");
  // A save refused because someone saved since the form was opened: both versions side by side.
  await page.goto("/desk/authors/2");
  const author = await site.db.selectFrom("author").select(["version", "role"]).where("id", "=", 2).executeTakeFirstOrThrow();
  await site.db
    .updateTable("author")
    .set({
      version: author.version + 1,
      role: `${author.role}, emerita`,
      updated_at: new Date().toISOString(),
      updated_by_name: "A colleague",
    })
    .where("id", "=", 2)
    .execute();
  await page.getByLabel("Biography").fill("A biography written while someone else saved.");
  await page.getByRole("button", { name: "Save the author" }).click();
  await expect(page.locator("#edit-author-error")).toHaveText(/^This author was changed by A colleague at .* since you opened it\./);
  await expect(page.getByRole("heading", { name: /^Saved since you opened it/ })).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `desk-author-stale at ${width} px`).toBeLessThanOrEqual(width);
    if (SCREENSHOT_WIDTHS.includes(width)) await screenshot(page, project, "desk-author-stale", width);
  }

  // Curation: a lead and a pinned story chosen through the page's own buttons, then given back.
  const older = await site.db.selectFrom("article").select(["slug", "title"]).orderBy("published").limit(2).execute();
  try {
    await page.goto("/desk/home");
    for (const [index, article] of older.entries()) {
      await page.getByLabel(index === 0 ? "Article for the lead story" : "Article to pin").fill(article.slug);
      await page.getByRole("button", { name: index === 0 ? "Make it the lead" : "Pin it" }).click();
      await expect(page.getByRole("status")).toContainText("Saved.");
    }
    await expect(page.locator("main ol li").first()).toContainText(older[0]!.title);
    await shoot(page, project, "desk-home", "/desk/home");
  } finally {
    const { version } = await homeCuration(site.db);
    await chooseHomeStories(site.db, COMMAND_LINE, version, [], new Date());
  }
  await shoot(page, project, "desk-reading-lists", "/desk/reading-lists");
  await shoot(page, project, "desk-reading-list-new", "/desk/reading-lists/new");
  await shoot(page, project, "desk-reading-list", "/desk/reading-lists/1");
});

test("the desk's magazine, newsletters and image pages, for an admin, fit the screen from 320 to 1280 px", async ({
  page,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await enrolledStaff(page, site, "screens-desk-media", ["admin"]);
  await shoot(page, project, "desk-magazine", "/desk/magazine");
  await shoot(page, project, "desk-magazine-year", "/desk/magazine?year=1974");
  await shoot(page, project, "desk-issue-new", "/desk/magazine/new");
  // The first issue, its contents as the seed made them, then a cover uploaded through its form.
  const magazineIssue = await site.db
    .selectFrom("magazine_issue")
    .select(["id", "code"])
    .orderBy("year")
    .orderBy("month")
    .executeTakeFirstOrThrow();
  await shoot(page, project, "desk-issue", `/desk/magazine/${magazineIssue.id}`);
  // The contents reordered and a feature added through the page's own buttons, with JS or without.
  const titles = page.locator("main ol li input[name$='.title']");
  const [first, second] = [await titles.nth(0).inputValue(), await titles.nth(1).inputValue()];
  await page.getByRole("button", { name: `move ${first} down` }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. Readers see the change within seconds.");
  await expect(titles.nth(0)).toHaveValue(second);
  await expect(titles.nth(1)).toHaveValue(first);
  await page.getByRole("group", { name: "Add a feature at the end" }).getByLabel("Title").fill("Letters to the Editor");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Saved. Readers see the change within seconds.");
  await expect(titles.last()).toHaveValue("Letters to the Editor");
  await page.goto(`/desk/magazine/${magazineIssue.id}/cover`);
  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "cover.jpg", mimeType: "image/jpeg", buffer: await jpegOf(900, 1200) });
  await page.getByLabel("Alt text").fill("A lighthouse beam over a grey sea");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toHaveText("The cover is on the issue now.");
  await shoot(page, project, "desk-issue-cover", `/desk/magazine/${magazineIssue.id}/cover`);
  await shoot(page, project, "issue-with-cover", `/archive-toc/${magazineIssue.code}`);
  // Newsletters: the list, a draft started through its button, the mail's preview and the send page.
  await page.goto("/desk/newsletters");
  await page.getByRole("button", { name: "Compose an issue of The Daily Brief" }).click();
  await page.waitForURL(/\/desk\/newsletters\/issues\/\d+$/);
  await expect(page.getByRole("status").first()).toContainText("A new draft");
  const issue = new URL(page.url()).pathname;
  await shoot(page, project, "desk-newsletters", "/desk/newsletters");
  await shoot(page, project, "desk-newsletter-issue", issue);
  await shoot(page, project, "desk-newsletter-preview", `${issue}/preview`);
  await shoot(page, project, "desk-newsletter-send", `${issue}/send`);

  // An article's image page before and after an upload through its form, and the article with it.
  const heroArticle = await site.db
    .selectFrom("article")
    .select(["id", "slug", "year", "month"])
    .where("tier", "=", "article")
    .orderBy("published", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const byline = await site.db
    .selectFrom("article_author")
    .innerJoin("author", "author.id", "article_author.author_id")
    .select("author.slug")
    .where("article_author.article_id", "=", heroArticle.id)
    .orderBy("article_author.position")
    .limit(1)
    .executeTakeFirstOrThrow();
  await shoot(page, project, "desk-article-image-none", `/desk/articles/${heroArticle.id}/image`);
  await page
    .getByLabel("Image", { exact: true })
    .setInputFiles({ name: "harbour.jpg", mimeType: "image/jpeg", buffer: await jpegOf(2400, 1350) });
  await page.getByLabel("Alt text").fill("A disc over a bar, in the evening");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toHaveText("The image is on the article now.");
  await shoot(page, project, "desk-article-image", `/desk/articles/${heroArticle.id}/image`);
  await page.goto(`/desk/authors/${byline.slug}/photo`);
  await page.getByLabel("Photo", { exact: true }).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await pngOf(600, 750) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toHaveText("The photo is on the author's articles now.");
  await shoot(page, project, "desk-author-photo", `/desk/authors/${byline.slug}/photo`);
  await shoot(page, project, "article-with-hero", `/${heroArticle.year}/${String(heroArticle.month).padStart(2, "0")}/${heroArticle.slug}`);

  // Videos and podcasts (ADR 083): the lists, the forms, and a video's files page after its
  // captions are uploaded through the form (the seed's own captions, so the site looks the same).
  await shoot(page, project, "desk-videos", "/desk/videos");
  await shoot(page, project, "desk-video-new", "/desk/videos/new");
  const video = await site.db.selectFrom("video").select(["id", "slug"]).orderBy("id").limit(1).executeTakeFirstOrThrow();
  await shoot(page, project, "desk-video", `/desk/videos/${video.id}`);
  await page.goto(`/desk/videos/${video.id}/files`);
  await page
    .getByLabel("Captions file")
    .setInputFiles({ name: "captions.vtt", mimeType: "text/vtt", buffer: fs.readFileSync(`content/video/${video.slug}.vtt`) });
  await page.getByRole("button", { name: "Upload" }).nth(1).click();
  await expect(page.getByRole("status")).toHaveText("The captions are uploaded: readers get them now.");
  await shoot(page, project, "desk-video-files", `/desk/videos/${video.id}/files`);
  await shoot(page, project, "desk-podcasts", "/desk/podcasts");
  await shoot(page, project, "desk-podcast-episodes", "/desk/podcasts/the-long-way-back");
  await shoot(page, project, "desk-episode-new", "/desk/podcasts/the-long-way-back/new");
  await shoot(page, project, "desk-episode", "/desk/podcasts/the-long-way-back/1");
  await shoot(page, project, "desk-episode-audio", "/desk/podcasts/the-long-way-back/1/audio");
});

/**
 * The desk's article pages: the list, a new article, one with a history (its edit page, its
 * revisions and a revision's diff), and the conflict a stale save meets when a colleague saved first.
 */
async function shootArticlePages(page: Page, site: Site, project: string, colleague: AuditActor) {
  const author = await site.db.selectFrom("author").select("slug").orderBy("slug").executeTakeFirstOrThrow();
  const subjects = await site.db.selectFrom("topic").select("name").where("subject_id", "is", null).orderBy("name").limit(2).execute();
  const fields = {
    title: "What the Night Shift Knows About Quality",
    dek: "Plants that listen to their night crews catch defects days earlier.",
    subDek: "",
    summary: "Night crews see problems first. A study of 40 plants shows what happens when managers ask them.",
    body: Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: the night shift notices what the day shift walks past.`).join("\n\n"),
    slug: `night-shift-quality-${project}-${Date.now()}`,
    authors: [author.slug],
    topics: [subjects[0]!.name],
    contentType: "Article",
    tier: "article" as const,
    series: null,
    seriesTitle: null,
    seriesPart: null,
    streams: [],
    published: "2026-03-04",
  };
  const made = await createArticle(site.db, COMMAND_LINE, fields, new Date());
  if (!made.ok) throw new Error(JSON.stringify(made.fieldErrors));
  const id = made.article.id;
  const body = fields.body.replace("Paragraph 3: the night shift notices", "Paragraph 3: the night shift often notices first");
  const saved = await saveArticle(
    site.db,
    colleague,
    id,
    1,
    { ...fields, title: "What Night Shifts Know About Quality", body },
    new Date(),
  );
  if (!saved.ok) throw new Error(saved.reason);
  const [latest] = await listRevisions(site.db, id);

  await shoot(page, project, "desk-articles", "/desk/articles");
  await shoot(page, project, "desk-article-new", "/desk/articles/new");
  await shoot(page, project, "desk-article-edit", `/desk/articles/${id}`);
  await shoot(page, project, "desk-article-revisions", `/desk/articles/${id}/revisions`);
  await shoot(page, project, "desk-article-diff", `/desk/articles/${id}/revisions/${latest!.id}`);

  // The edit page is opened at version 2, then the colleague saves again: this page's save is stale.
  await page.goto(`/desk/articles/${id}`);
  const current = saved.article;
  const again = await saveArticle(
    site.db,
    colleague,
    id,
    2,
    { ...fields, title: current.title, body, dek: "Plants that ask their night crews catch defects days sooner." },
    new Date(),
  );
  if (!again.ok) throw new Error(again.reason);
  await page.getByLabel("Title", { exact: true }).fill("What the Night Shift Sees First");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Someone else saved this article" })).toBeVisible();
  for (const width of SCREENSHOT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `conflict at ${width} px`).toBeLessThanOrEqual(width);
    await screenshot(page, project, "desk-article-conflict", width);
  }
}

test("the desk's customer-service pages, for a service agent, fit the screen from 320 to 1280 px", async ({ page, site }, testInfo) => {
  test.setTimeout(120_000);
  const project = testInfo.project.name;
  // A reader with something in every part of their page: a lockout, a plan, a case study, mail.
  const email = uniqueEmail("screens-service-reader");
  const userId = await createReader(site, email, { plan: "digital", firstName: "Lena", lastName: "Quist" });
  for (let i = 0; i < 5; i++) await checkPassword(site.db, email, "Not-the-password-1", { maxFailures: 5, lockoutSeconds: 900 });
  const pick = await availabilities(site.db);
  await insertOrder(site.db, {
    userId,
    email,
    status: "paid",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.caseStudy.id }, { availabilityId: pick.kindle.id }],
  });
  await logMail(site.db, {
    recipients: [email],
    subject: "Welcome to Meridian Review",
    messageId: "<screens@example.org>",
    at: new Date(),
  });
  await enrolledStaff(page, site, "screens-service", ["service"]);
  await shoot(page, project, "desk-readers", `/desk/readers?q=${encodeURIComponent(email.slice(0, 20))}`);
  await shoot(page, project, "desk-reader", `/desk/readers/${userId}`);
});

test("the desk's orders, an order's page, products, offers and the reports, for the store, fit the screen from 320 to 1280 px", async ({
  page,
  site,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  await enrolledStaff(page, site, "screens-desk-orders", ["store"]);
  const pick = await availabilities(site.db);
  const order = await insertOrder(site.db, {
    userId: null,
    email: "screens-orders@example.org",
    status: "pending_payment",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id, quantity: 2 }, { availabilityId: pick.kindle.id }],
  });
  await markOrderPaid(site.db, order.id);
  const store: AuditActor = { id: null, label: "screens-store@example.org" };
  await fulfilLines(
    site.db,
    store,
    order.id,
    { positions: [1], carrier: "royal-mail", trackingNumber: "RM123456785GB", idempotencyKey: `screens:${order.id}` },
    new Date(),
  );
  await shoot(page, project, "desk-orders", "/desk/orders");
  await shoot(page, project, "desk-order", `/desk/orders/${order.number}`);
  // The catalogue (ADR 091): a product with a price scheduled for later, and the offers with a use.
  await schedulePrice(
    site.db,
    { actor: store, name: "Screens Store" },
    pick.hardcover.productId,
    pick.hardcover.id,
    { priceCents: 3450, startsAt: new Date(Date.now() + 7 * 86_400_000) },
    new Date(),
  );
  await shoot(page, project, "desk-products", "/desk/products");
  await shoot(page, project, "desk-product", `/desk/products/${pick.hardcover.productId}`);
  await shoot(page, project, "desk-product-format", `/desk/products/${pick.hardcover.productId}/formats/${pick.hardcover.id}`);
  await shoot(page, project, "desk-offers", "/desk/offers");
  await shoot(page, project, "desk-promo-code", "/desk/offers/promo-codes/WELCOME10");
  await shoot(page, project, "desk-voucher", "/desk/offers/vouchers/GIFT-LEDGER-0001");
  // The reports (ADR 090), with the order paid today among the last 30 days' sales.
  await shoot(page, project, "desk-reports", "/desk/reports");
});
