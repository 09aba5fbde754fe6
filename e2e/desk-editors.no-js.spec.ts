import type { Browser, Page } from "@playwright/test";
import { createArticle } from "~/server/desk/articles";
import { COMMAND_LINE } from "~/server/desk/audit";
import { chooseHomeStories, homeCuration } from "~/server/desk/curation";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { expect, test } from "./fixtures";
import type { Site } from "./site";
import { enrolledStaff } from "./staff";

// The desk without JavaScript, in the browser (issue 38): two editors cannot lose each other's
// work and a revision can be restored; an editor chooses the home page's stories; and the roles
// hold: a customer-service member cannot publish, and a reader cannot tell the desk exists.

/** A draft, as the content files or a colleague left it, for a test to work on. */
async function draft(site: Site, label: string) {
  const fields = await newArticleFields(site.db, {
    title: "The Quiet Audit",
    dek: "Teams that check their own numbers find errors first.",
    summary: "Self-audits catch mistakes before the auditors do.",
    body: "The first paragraph.\n\nThe second paragraph.\n\nThe third paragraph.",
    slug: `the-quiet-audit-${label}-${Date.now().toString(36)}`,
    published: "2026-02-10",
  });
  const made = await createArticle(site.db, COMMAND_LINE, fields, new Date());
  if (!made.ok) throw new Error(JSON.stringify(made));
  return made.article;
}

/** A text field of the article form (the conflict's diff labels its regions with the same names). */
const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });

async function newPage(browser: Browser, site: Site, js: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  return context.newPage();
}

test("two editors save one article: the second is told who saved and sees both versions, nothing is lost, and a revision is restored", async ({
  page,
  browser,
  site,
  js,
}) => {
  const article = await draft(site, "editors");
  const desk = `/desk/articles/${article.id}`;
  await enrolledStaff(page, site, "ada", ["editor"], { firstName: "Ada", lastName: "Lovelace" });
  const other = await newPage(browser, site, js);
  await enrolledStaff(other, site, "ben", ["editor"], { firstName: "Ben", lastName: "Okri" });

  await test.step("both open the article; the first saves a new title", async () => {
    await Promise.all([page.goto(desk), other.goto(desk)]);
    await field(page, "Title").fill("The Quiet Audit That Saved a Quarter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
  });

  const conflict = other.getByRole("region", { name: "Someone else saved this article" });

  await test.step("the second saves a new dek over it and is told who changed it, when, with both versions", async () => {
    await field(other, "Dek").fill("Teams that check their own numbers find errors months sooner.");
    await other.getByRole("button", { name: "Save", exact: true }).click();
    await expect(conflict).toContainText(
      /This article was changed by Ada Lovelace at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC since you opened it\. Nothing of yours was saved\./,
    );
    // Theirs, read-only: where it differs from this editor's, whose text stays in the form.
    await expect(conflict.getByRole("region", { name: "Title" }).locator("ins")).toHaveText(
      "Only in their version: The Quiet Audit That Saved a Quarter",
    );
    await expect(conflict.getByRole("region", { name: "Dek" }).locator("del")).toHaveText(
      "Only in your version: Teams that check their own numbers find errors months sooner.",
    );
    await expect(field(other, "Dek")).toHaveValue("Teams that check their own numbers find errors months sooner.");
    await expect(field(other, "Title")).toHaveValue("The Quiet Audit");
  });

  await test.step("having read it, the second takes in the first's title and saves both changes", async () => {
    await field(other, "Title").fill("The Quiet Audit That Saved a Quarter");
    await other.getByRole("button", { name: "Save", exact: true }).click();
    await expect(other.getByRole("status")).toHaveText("Saved.");
    await expect(field(other, "Title")).toHaveValue("The Quiet Audit That Saved a Quarter");
    await expect(field(other, "Dek")).toHaveValue("Teams that check their own numbers find errors months sooner.");
  });

  await test.step("every save is a revision, and the first one can be restored as a new version", async () => {
    await page.goto(desk);
    await page.getByRole("link", { name: "Revisions", exact: true }).click();
    const rows = page.locator("main table tbody tr");
    await expect(rows.locator('td[data-label="Who"]')).toHaveText(["Ben Okri", "Ada Lovelace", "command line"]);
    await page.getByRole("link", { name: /^See version 1\b/ }).click();
    await page.getByRole("button", { name: "Restore this revision" }).click();
    await expect(page.getByRole("status")).toHaveText("Restored version 1: the article is now at version 4.");
    await expect(field(page, "Title")).toHaveValue("The Quiet Audit");
    await expect(field(page, "Dek")).toHaveValue("Teams that check their own numbers find errors first.");
    await page.getByRole("link", { name: "Revisions", exact: true }).click();
    await expect(rows.locator('td[data-label="Who"]')).toHaveText(["Ada Lovelace", "Ben Okri", "Ada Lovelace", "command line"]);
  });

  await other.context().close();
});

test("an editor chooses the home page's lead and pinned stories, reorders and removes them", async ({ page, browser, site, js }) => {
  const [first, second] = await site.db
    .selectFrom("article")
    .select(["slug", "title"])
    .orderBy("published")
    .orderBy("id")
    .limit(2)
    .execute();
  await enrolledStaff(page, site, "curator", ["editor"]);
  const guest = await newPage(browser, site, js);
  const lead = guest.getByRole("region", { name: "Top stories" }).getByRole("heading", { level: 3 }).first();
  await guest.goto("/");
  const newestLead = await lead.textContent();
  try {
    await page.goto("/desk/home");
    await page.getByLabel("Article for the lead story").fill(first!.slug);
    await page.getByRole("button", { name: "Make it the lead" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved. The home page shows it within seconds.");
    await page.getByLabel("Article to pin").fill(second!.slug);
    await page.getByRole("button", { name: "Pin it" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved. The home page shows it within seconds.");
    await page.getByRole("button", { name: `Move ${second!.title} up` }).click();
    await expect(page.locator("main ol li").first()).toContainText(second!.title);

    await guest.goto("/");
    await expect(lead).toHaveText(second!.title);
    await expect(guest.getByRole("region", { name: "Top stories" }).getByRole("heading", { level: 3, name: first!.title })).toBeVisible();

    await page.getByRole("button", { name: `Remove ${second!.title}` }).click();
    await page.getByRole("button", { name: `Remove ${first!.title}` }).click();
    await expect(page.getByText("None: the home page leads with the newest articles.")).toBeVisible();
    await guest.goto("/");
    await expect(lead).toHaveText(newestLead!);
  } finally {
    // Whatever happened above, the worker's other tests find the home page as seeded.
    const { version, stories } = await homeCuration(site.db);
    if (stories.length > 0) await chooseHomeStories(site.db, COMMAND_LINE, version, [], new Date());
    await guest.context().close();
  }
});

test("a customer-service member has no publishing and is refused a publish; a reader gets 404 for the desk", async ({
  page,
  browser,
  site,
  signIn,
  js,
}) => {
  const article = await draft(site, "roles");
  const desk = `/desk/articles/${article.id}`;

  await test.step("a signed-in reader without a role: the desk does not exist", async () => {
    await signIn(`roles-reader.${Date.now().toString(36)}@example.org`);
    for (const path of ["/desk", "/desk/articles", desk]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    }
    const post = await page.request.post(desk, { form: { intent: "publish" }, headers: { Origin: site.url } });
    expect(post.status()).toBe(404);
  });

  await test.step("a customer-service member: no article pages, no publish control, and a publish posted anyway is refused", async () => {
    const service = await newPage(browser, site, js);
    await enrolledStaff(service, site, "service", ["service"]);
    await service.goto("/desk");
    await expect(service.getByRole("heading", { level: 1, name: "The desk" })).toBeVisible();
    await expect(service.getByRole("link", { name: "Articles" })).toHaveCount(0);
    const opened = await service.goto(desk);
    expect(opened?.status()).toBe(403);
    await expect(service.getByRole("heading", { level: 1, name: "Access denied" })).toBeVisible();
    await expect(service.getByRole("button", { name: "Publish now" })).toHaveCount(0);
    const post = await service.request.post(desk, { form: { intent: "publish" }, headers: { Origin: site.url } });
    expect(post.status()).toBe(403);
    const record = await site.db
      .selectFrom("article_record")
      .select(["status", "version"])
      .where("id", "=", article.id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ status: "draft", version: 1 });
    expect((await service.request.get(article.path)).status()).toBe(404);
    await service.context().close();
  });
});
