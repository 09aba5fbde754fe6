import type { APIRequestContext, Page } from "@playwright/test";
import { articlePath, topicPath } from "~/shared/urls";
import { jpegOf } from "~/tests/helpers/images";
import { expect, test } from "./fixtures";
import { enrolledStaff } from "./staff";

// Issue 38's "Done when", without JavaScript, in the browser: an editor signs in with TOTP,
// writes an article with an uploaded hero image, previews it at the wall and schedules it; the
// scheduled jobs of the server (server/jobs) publish it, and a guest finds it everywhere the site
// lists articles and is metered on it. A title change moves its address with a 301, unpublishing
// gives 410, and an admin finds every step in the audit log.

/** A moment as the schedule's datetime-local control takes it: UTC (as the desk reads it), to the second. */
function scheduleValue(at: Date): string {
  // A whole minute would read back as HH:MM: keep the seconds in the value.
  if (at.getUTCSeconds() === 0) at = new Date(at.getTime() + 1000);
  return at.toISOString().slice(0, 19);
}

/** Every URL the sitemap's files list, following its index as a crawler does. */
async function sitemapUrls(request: APIRequestContext): Promise<string[]> {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const index = await request.get("/sitemap.xml");
  expect(index.status()).toBe(200);
  const files = await Promise.all(
    locs(await index.text()).map(async (file) => locs(await (await request.get(new URL(file).pathname)).text())),
  );
  return files.flat();
}

const freeLeft = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

test("an editor writes, previews and schedules an article; once published a guest finds it and is metered; it moves, is withdrawn, and the audit log shows it all", async ({
  page,
  browser,
  site,
  js,
}) => {
  const guestContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
  const guest = await guestContext.newPage();
  const author = await site.db.selectFrom("author").select(["slug", "name"]).orderBy("slug").executeTakeFirstOrThrow();
  const subject = await site.db
    .selectFrom("topic")
    .select(["name", "slug"])
    .where("subject_id", "is", null)
    .orderBy("name")
    .executeTakeFirstOrThrow();
  // An article a guest may read before this one, to show the new one took a read off the meter.
  const earlier = await site.db
    .selectFrom("article")
    .select(["year", "month", "slug"])
    .where("tier", "=", "article")
    .where("id", "not in", (eb) => eb.selectFrom("stream_entry").select("article_id").where("stream", "=", "ascend"))
    .orderBy("published", "desc")
    .executeTakeFirstOrThrow();
  // Dated today, or with the newest article if the seed's dates run later: it leads the latest lists.
  const newest = await site.db.selectFrom("article").select("published").orderBy("published", "desc").executeTakeFirstOrThrow();
  const today = new Date().toISOString().slice(0, 10);
  const dated = today > newest.published ? today : newest.published;
  const [year, month] = dated.split("-");
  const run = Date.now().toString(36);
  const title = "Quillbrook Harbour Keeps Its Books Open";
  const slug = `quillbrook-harbour-${run}`;
  const path = `/${year}/${month}/${slug}`;

  const editor = await test.step("an editor enrolled as staff signs in with a TOTP code from the secret shown", () =>
    enrolledStaff(page, site, "lifecycle-editor", ["editor"]));

  const id = await test.step("writes an article and saves it as a draft", async () => {
    await page.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Articles" }).click();
    await page.getByRole("link", { name: "New article" }).click();
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Dek", { exact: true }).fill("A small port publishes its accounts every month, and trust follows.");
    await page.getByLabel("Summary", { exact: true }).fill("How a harbour board opened its books, and what its traders did next.");
    await page
      .getByLabel("Body", { exact: true })
      .fill(Array.from({ length: 6 }, (_, i) => `Paragraph ${i + 1} of the harbour board's story, as its traders tell it.`).join("\n\n"));
    await page.getByLabel("Slug", { exact: true }).fill(slug);
    await page.getByLabel("Publication date", { exact: true }).fill(dated);
    await page.getByLabel("Authors", { exact: true }).fill(author.slug);
    await page.getByLabel("Topics", { exact: true }).fill(subject.name);
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved as a draft.");
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    return Number(/\/desk\/articles\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
  });

  const desk = `/desk/articles/${id}`;
  const state = page.getByRole("complementary", { name: "State and publishing" });

  await test.step("uploads a hero image", async () => {
    await page.getByRole("link", { name: "Hero image" }).click();
    await page
      .getByLabel("Image", { exact: true })
      .setInputFiles({ name: "harbour.jpg", mimeType: "image/jpeg", buffer: await jpegOf(640, 360) });
    await page.getByLabel("Alt text").fill("The harbour board's ledger, open on a quay");
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("status")).toHaveText("The image is on the article now.");
  });

  await test.step("previews it at the wall, at its private address, while readers cannot see it", async () => {
    await page.goto(desk);
    await page.getByRole("link", { name: "at the wall" }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/preview\//);
    await expect(page.getByRole("region", { name: "Preview" }).getByRole("status")).toContainText("Preview of a draft article");
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("img", { name: "The harbour board's ledger, open on a quay" })).toBeVisible();
    await expect(
      page.locator("#paywall").getByRole("heading", { name: "Do you want to keep reading Meridian Review for free?" }),
    ).toBeVisible();
    await expect(page.locator("#article-body .paywalled-content")).toHaveCount(0);
    expect((await guest.request.get(path)).status()).toBe(404);
  });

  await test.step("schedules it a few seconds ahead (the form takes any future time, to the second)", async () => {
    await page.goto(desk);
    await state.getByLabel("Publish at (UTC)").fill(scheduleValue(new Date(Date.now() + 5_000)));
    await state.getByRole("button", { name: "Schedule" }).click();
    await expect(page.getByRole("status")).toHaveText(/^Scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);
    await expect(state.getByText("Scheduled", { exact: true })).toBeVisible();
  });

  await test.step("the scheduled jobs publish it: the desk shows it on the site", async () => {
    await expect(async () => {
      await page.reload();
      await expect(state.getByRole("link", { name: path })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await expect(state.getByText("Published", { exact: true })).toBeVisible();
  });

  await test.step("a guest finds it on the home page, its topic page and in search", async () => {
    await guest.goto("/");
    await expect(guest.getByRole("main").getByRole("link", { name: title }).first()).toBeVisible();
    await guest.goto(topicPath(subject.slug));
    await expect(guest.getByRole("main").getByRole("link", { name: title }).first()).toBeVisible();
    await guest.goto("/search?q=Quillbrook");
    await expect(guest.getByRole("main").getByRole("link", { name: title }).first()).toBeVisible();
  });

  await test.step("and in the sitemap and the RSS feed", async () => {
    expect(await sitemapUrls(guest.request)).toContain(`${site.url}${path}`);
    const feed = await guest.request.get("/feeds/latest.xml");
    expect(await feed.text()).toContain(`<link>${site.url}${path}</link>`);
  });

  await test.step("a guest reading it is metered", async () => {
    await guest.goto(path);
    await expect(guest.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(guest.getByRole("img", { name: "The harbour board's ledger, open on a quay" })).toBeVisible();
    await expect(freeLeft(guest, "You have 3 free articles left this month.")).toBeVisible();
    // The next article counts down from there: this one took a read.
    await guest.goto(articlePath({ year: earlier.year, month: earlier.month, slug: earlier.slug }));
    await expect(freeLeft(guest, "You have 2 free articles left this month.")).toBeVisible();
  });

  const newTitle = "Quillbrook Harbour Opens Its Books to Traders";
  const newPath = `/${year}/${month}/quillbrook-harbour-opens-${run}`;

  await test.step("a title change moves its address, and the old one answers 301", async () => {
    await page.goto(desk);
    await page.getByLabel("Title", { exact: true }).fill(newTitle);
    await page.getByLabel("Slug", { exact: true }).fill(`quillbrook-harbour-opens-${run}`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
    const moved = await guest.request.get(path, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(new URL(moved.headers().location!, site.url).pathname).toBe(newPath);
    await guest.goto(path);
    expect(new URL(guest.url()).pathname).toBe(newPath);
    await expect(guest.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();
  });

  await test.step("unpublishing gives 410 with the site's page", async () => {
    await state.getByRole("button", { name: "Unpublish" }).click();
    await expect(page.getByRole("status")).toHaveText("Unpublished: its address now answers 410 Gone.");
    const gone = await guest.goto(newPath);
    expect(gone?.status()).toBe(410);
    await expect(guest.getByRole("heading", { level: 1, name: "Article withdrawn" })).toBeVisible();
    await expect(guest.getByRole("banner")).toBeVisible();
  });

  await test.step("an admin reads every step in the audit log", async () => {
    const adminContext = await browser.newContext({ baseURL: site.url, javaScriptEnabled: js });
    const admin = await adminContext.newPage();
    await enrolledStaff(admin, site, "lifecycle-admin", ["admin"]);
    await admin.goto("/desk/audit");
    const rows = admin.locator("main table tbody tr");
    const cell = (row: ReturnType<typeof rows.nth>, label: string) => row.locator(`td[data-label="${label}"]`);
    const ours = rows.filter({ has: admin.locator('td[data-label="About"]', { hasText: new RegExp(`^article:${id}$`) }) });
    await expect(ours.locator('td[data-label="What"]')).toHaveText([
      "Unpublished an article",
      "Saved an article",
      "Published an article",
      "Scheduled an article",
      "Changed an article's image",
      "Created an article",
    ]);
    await expect(ours.locator('td[data-label="Who"]')).toHaveText([
      editor.email,
      editor.email,
      "scheduler",
      editor.email,
      editor.email,
      editor.email,
    ]);
    const save = ours.nth(1);
    await expect(cell(save, "Before")).toContainText(title);
    await expect(cell(save, "After")).toContainText(newTitle);
    const enrolled = rows.filter({ has: admin.locator('td[data-label="Who"]', { hasText: editor.email }) });
    await expect(enrolled.locator('td[data-label="What"]', { hasText: "Set up a second factor" })).toHaveCount(1);
    await adminContext.close();
  });

  await guestContext.close();
});
