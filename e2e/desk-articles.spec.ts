import { expect, test } from "./fixtures";
import { enrolledStaff } from "./staff";

// An editor writes an article at the desk, saves it as a draft, publishes it and finds it on the
// site: with and without JS, in the browser.

test("an editor writes an article, saves it, publishes it and sees it on the site", async ({ page, site, axe }, testInfo) => {
  const author = await site.db.selectFrom("author").select("slug").orderBy("slug").executeTakeFirstOrThrow();
  const subject = await site.db
    .selectFrom("topic")
    .select("name")
    .where("subject_id", "is", null)
    .orderBy("name")
    .executeTakeFirstOrThrow();
  await enrolledStaff(page, site, "desk-articles", ["editor"]);

  await page.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Articles" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Articles" })).toBeVisible();
  await axe(page);
  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New article" })).toBeVisible();

  const title = `The Desk's Own Story (${testInfo.project.name})`;
  const slug = `the-desks-own-story-${testInfo.project.name}-${Date.now()}`;
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Dek", { exact: true }).fill("Written in the browser, published without a deploy.");
  await page.getByLabel("Summary", { exact: true }).fill("An editor writes, saves and publishes an article at the desk.");
  await page.getByLabel("Body", { exact: true }).fill("The first paragraph.\n\n## What happened\n\n- It was saved\n- It was published");
  await page.getByLabel("Slug", { exact: true }).fill(slug);
  await page.getByLabel("Publication date", { exact: true }).fill("2026-03-04");
  await page.getByLabel("Authors", { exact: true }).fill(author.slug);
  await page.getByLabel("Topics", { exact: true }).fill(subject.name);
  await page.getByLabel("Big Ideas").check();
  await page.getByRole("button", { name: "Save draft" }).click();

  await expect(page.getByRole("status")).toHaveText("Saved as a draft.");
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "State and publishing" })).toContainText("Draft");
  await axe(page);

  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByRole("status")).toHaveText("Published.");
  const onSite = page.getByRole("complementary", { name: "State and publishing" }).getByRole("link", { name: `/2026/03/${slug}` });
  await onSite.click();
  await page.waitForURL((url) => url.pathname === `/2026/03/${slug}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("The first paragraph.")).toBeVisible();
});
