import type { Page } from "@playwright/test";
import { register } from "~/server/accounts/registration";
import { createArticle, getDeskArticle, listRevisions, saveArticle, type DeskArticle } from "~/server/desk/articles";
import type { ArticleFields } from "~/shared/article-fields";
import { AUTOSAVE_AFTER_CONFLICT } from "~/shared/article-vocabulary";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { expect, PASSWORD, test, uniqueEmail } from "./fixtures";
import type { Site } from "./site";
import { enrolledStaff } from "./staff";

// The desk's article form with JS (ADR 085): the preview pane beside the body, the comboboxes
// for the authors and topics, and autosave, which never writes over another editor's save.
// Without JS the form is the plain one, with its preview links.

/** An editor signed in and inside the desk. */
async function editorInside(page: Page, site: Site): Promise<void> {
  await enrolledStaff(page, site, "desk-enhance", ["editor"]);
}

const FIELDS = [
  "title",
  "dek",
  "subDek",
  "summary",
  "body",
  "slug",
  "authors",
  "topics",
  "contentType",
  "tier",
  "series",
  "seriesTitle",
  "seriesPart",
  "streams",
  "published",
] as const;
const fieldsOf = (article: DeskArticle) => Object.fromEntries(FIELDS.map((key) => [key, article[key]])) as ArticleFields;

/** A draft by two authors in two topics, as a colleague left it. */
async function draftFor(site: Site, label: string) {
  const authors = await site.db.selectFrom("author").select(["slug", "name"]).orderBy("name").limit(3).execute();
  const subjects = await site.db.selectFrom("topic").select("name").where("subject_id", "is", null).orderBy("name").limit(2).execute();
  const colleague = await register(site.db, {
    firstName: "Ben",
    lastName: "Colleague",
    email: uniqueEmail("ben"),
    password: PASSWORD,
    optIn: false,
  });
  if (!colleague.ok) throw new Error(colleague.reason);
  const ben = { id: colleague.user.id, label: colleague.user.email };
  const fields = await newArticleFields(site.db, {
    title: `Ledgers in Motion (${label})`,
    slug: `ledgers-in-motion-${label}-${Date.now()}`,
    body: "The first paragraph.",
    authors: [authors[0]!.slug, authors[1]!.slug],
    topics: [subjects[0]!.name],
    published: "2026-03-04",
  });
  const created = await createArticle(site.db, ben, fields, new Date());
  if (!created.ok) throw new Error(JSON.stringify(created));
  return { id: created.article.id, authors, subjects, ben };
}

test("the article form previews the body, offers authors and topics, and autosaves without overwriting anyone", async ({
  page,
  site,
  js,
  axe,
  browserErrors,
}, testInfo) => {
  const { id, authors, subjects, ben } = await draftFor(site, testInfo.project.name);
  await editorInside(page, site);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/desk/articles/${id}`);
  const article = async () => (await getDeskArticle(site.db, id))!;

  if (!js) {
    // The form as it always was: plain text fields, the private preview links, nothing said about saving.
    await expect(page.getByRole("textbox", { name: "Authors", exact: true })).toHaveValue(`${authors[0]!.slug}, ${authors[1]!.slug}`);
    await expect(page.getByRole("combobox", { name: "Authors" })).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Preview" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "at the wall" })).toBeVisible();
    await page.getByLabel("Title", { exact: true }).fill("Saved the Plain Way");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
    expect((await article()).title).toBe("Saved the Plain Way");
    return;
  }

  // The preview pane: beside the body on a laptop, the article page's rendering, following the typing.
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("The first paragraph.");
  const body = page.getByLabel("Body", { exact: true });
  await body.fill("The first paragraph.\n\n## A fresh subheading\n\n> A quote worth pulling.");
  await expect(preview.getByRole("heading", { level: 2, name: "A fresh subheading" })).toBeVisible();
  await expect(preview.locator("blockquote")).toHaveText("A quote worth pulling.");
  const [bodyBox, previewBox] = [await body.boundingBox(), await preview.boundingBox()];
  expect(previewBox!.x).toBeGreaterThan(bodyBox!.x + bodyBox!.width - 1);
  await axe(page);

  // The authors' combobox: a third author found by name, chosen with the keys, then moved first.
  const authorsField = page.getByRole("combobox", { name: "Authors" });
  const chosenAuthors = page.getByRole("list", { name: "Authors chosen, in byline order" }).getByRole("listitem");
  await expect(chosenAuthors).toHaveCount(2);
  await authorsField.focus();
  await page.keyboard.type(authors[2]!.name.slice(0, 5));
  const suggestions = page.getByRole("listbox", { name: "Suggested authors" });
  await expect(suggestions.getByRole("option", { name: new RegExp(authors[2]!.name) })).toBeVisible();
  await expect(authorsField).toHaveAttribute("aria-expanded", "true");
  const offered = await suggestions.getByRole("option").allTextContents();
  const index = offered.findIndex((text) => text.startsWith(authors[2]!.name));
  for (let i = 0; i <= index; i++) await page.keyboard.press("ArrowDown");
  await expect(authorsField).toHaveAttribute("aria-activedescendant", /option/);
  await page.keyboard.press("Enter");
  await expect(chosenAuthors).toHaveCount(3);
  await expect(authorsField).toHaveValue("");
  await page.getByRole("button", { name: `Move ${authors[2]!.name} up` }).click();
  await page.getByRole("button", { name: `Move ${authors[2]!.name} up` }).click();
  await expect(chosenAuthors.first()).toContainText(authors[2]!.name);

  // The topics' combobox: a second subject added, then made the primary topic.
  const topicsField = page.getByRole("combobox", { name: "Topics" });
  await topicsField.fill(subjects[1]!.name);
  await expect(page.getByRole("listbox", { name: "Suggested topics" }).getByRole("option").first()).toContainText(subjects[1]!.name);
  await topicsField.press("Enter");
  await page.getByRole("button", { name: `Move ${subjects[1]!.name} up` }).click();
  const chosenTopics = page.getByRole("list", { name: "Topics chosen; the first is the primary topic" }).getByRole("listitem");
  await expect(chosenTopics.first()).toContainText(`${subjects[1]!.name}Primary topic`);

  // Autosave: once the editor pauses, what is in the form is saved, and said. (An autosave that
  // came while a name was half typed was refused, 400, and said so; the next one saved it all.)
  browserErrors.allow(/the server responded with a status of 400/);
  const status = page.locator("#article-autosave");
  await expect
    .poll(async () => {
      const { authors, topics, body } = await article();
      return { authors, topics, body };
    })
    .toEqual({
      authors: [authors[2]!.slug, authors[0]!.slug, authors[1]!.slug],
      topics: [subjects[1]!.name, subjects[0]!.name],
      body: "The first paragraph.\n\n## A fresh subheading\n\n> A quote worth pulling.",
    });
  await expect(status).toHaveText(/^Saved at \d\d:\d\d UTC$/);
  const saved = await article();
  // One sitting's autosaves are one revision.
  expect((await listRevisions(site.db, id)).map((r) => r.autosaved)).toEqual([true, false]);

  // A colleague saves meanwhile: the next autosave stops with the desk's message, and writes nothing.
  browserErrors.allow(/the server responded with a status of 409/);
  const theirs = await saveArticle(site.db, ben, id, saved.version, { ...fieldsOf(saved), title: "Ben's Own Title" }, new Date());
  expect(theirs.ok).toBe(true);
  await page.getByLabel("Title", { exact: true }).fill("My Title, Autosaved");
  await expect(status).toContainText(/^Not saved: This article was changed by Ben Colleague at .+ UTC since you opened it\./);
  await expect(status).toContainText("Autosave has stopped.");
  await expect(status.getByRole("link", { name: "Reload the article" })).toHaveAttribute("href", `/desk/articles/${id}`);
  expect((await article()).title).toBe("Ben's Own Title");
  // Save shows both versions, as without JS.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Someone else saved this article" })).toBeVisible();
  // Having been shown theirs, the editor's version replaces it only when the editor presses Save.
  await expect(status).toHaveText(AUTOSAVE_AFTER_CONFLICT);
  expect((await article()).title).toBe("Ben's Own Title");
});

test("autosave keeps what was typed when the editor leaves for another desk page; without JS only Save keeps it", async ({
  page,
  site,
  js,
}, testInfo) => {
  const { id } = await draftFor(site, `${testInfo.project.name}-leaving`);
  await editorInside(page, site);
  await page.goto(`/desk/articles/${id}`);
  if (js) await expect(page.getByRole("combobox", { name: "Authors" })).toBeVisible();
  await page.getByLabel("Dek", { exact: true }).fill("Typed just before leaving.");
  await page.getByRole("link", { name: "Articles", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Articles" })).toBeVisible();
  const dek = async () => (await getDeskArticle(site.db, id))!.dek;
  if (js) await expect.poll(dek).toBe("Typed just before leaving.");
  else expect(await dek()).toBe("A dek.");
});

test("on a phone the preview comes below the body; without JS the preview links stand in for it", async ({ page, site, js }, testInfo) => {
  const { id } = await draftFor(site, `${testInfo.project.name}-phone`);
  await editorInside(page, site);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/desk/articles/${id}`);
  const preview = page.getByRole("region", { name: "Preview" });
  if (!js) {
    await expect(preview).toHaveCount(0);
    await expect(page.getByRole("link", { name: "as a guest" })).toBeVisible();
    return;
  }
  await expect(preview).toContainText("The first paragraph.");
  const [bodyBox, previewBox] = [await page.getByLabel("Body", { exact: true }).boundingBox(), await preview.boundingBox()];
  expect(previewBox!.y).toBeGreaterThan(bodyBox!.y + bodyBox!.height - 1);
});
