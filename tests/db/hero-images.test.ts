import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { databaseImageStorage } from "~/server/adapters/image-storage";
import { latestArticles, articlePage } from "~/server/content/articles";
import { contentGeneration } from "~/server/content/content-generation";
import { connect, type Database } from "~/server/db/connection";
import { auditPage, type AuditActor } from "~/server/desk/audit";
import { articlePicture, authorPicture, setArticleImage, setAuthorPhoto } from "~/server/desk/images";
import { storeUpload, type UploadedImage } from "~/server/images/uploads";
import { jpegOf, pngOf } from "~/tests/helpers/images";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Uploaded images in use (issue 38): an article's hero and an author's photo, set and removed
// as audited actions of their own, and what readers' queries show of them, on this instance and
// on another one reading the same database.

const EDITOR: AuditActor = { id: null, label: "editor@meridian.example" };
const NOW = new Date("2026-06-01T09:00:00Z");

let connection: IsolatedConnection;
let db: Database;
/** Another instance of the site on the same database. */
let other: Database;
let hero: UploadedImage;
let portrait: UploadedImage;
let article: { id: number; slug: string; year: number; month: number; version: number };
let author: { id: number; slug: string; name: string };

let offset = 0;
const realNow = performance.now.bind(performance);
vi.spyOn(performance, "now").mockImplementation(() => realNow() + offset);
/** Another instance trusts the generation it read for a second: its clock moves on by one. */
const aSecondPasses = () => (offset += 1_001);

async function uploaded(bytes: Buffer, alt: string): Promise<UploadedImage> {
  const result = await storeUpload(db, databaseImageStorage, EDITOR, bytes, NOW, { alt });
  if (!result.ok) throw new Error(result.message);
  return result.image;
}

beforeAll(async () => {
  connection = await isolatedConnection("hero");
  db = connect(connection);
  other = connect(connection);
  hero = await uploaded(await jpegOf(1600, 900), "A harbour at dawn");
  portrait = await uploaded(await pngOf(600, 600), "");
  // The newest article: the latest articles (cards) list it first.
  article = await db
    .selectFrom("article_record")
    .select(["id", "slug", "year", "month", "version"])
    .where("status", "=", "published")
    .orderBy("published", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  author = await db
    .selectFrom("author")
    .innerJoin("article_author", "article_author.author_id", "author.id")
    .select(["author.id", "author.slug", "author.name"])
    .where("article_author.article_id", "=", article.id)
    .orderBy("article_author.position")
    .limit(1)
    .executeTakeFirstOrThrow();
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await db?.destroy();
  await other?.destroy();
  await connection?.drop();
});

const pageOf = async (database: Database) => {
  const found = await articlePage(database, article.year, article.month, article.slug);
  if (found.kind !== "found") throw new Error(found.kind);
  return found.page;
};

async function auditRows(action: "article.image" | "author.photo") {
  return (await auditPage(db, { action }, 1, 50)).rows;
}

describe(`an article's hero image on ${dialectName}`, () => {
  it("answers an unknown article or image with a result, changing nothing", async () => {
    expect(await setArticleImage(db, EDITOR, 999_999, hero.id, NOW)).toEqual({ ok: false, reason: "missing-article" });
    expect(await setArticleImage(db, EDITOR, article.id, "no-such-image", NOW)).toEqual({ ok: false, reason: "missing-image" });
    expect((await articlePicture(db, article.id))!.hero).toBeNull();
    expect(await auditRows("article.image")).toEqual([]);
  });

  it("shows the drawn art until a hero is set, then the hero, here and on another instance; no revision, the version unchanged", async () => {
    const before = await pageOf(db);
    expect(before.article.hero).toBeNull();
    expect(before.article.image).toBe(`/art/article/${article.slug}.svg`);
    expect((await pageOf(other)).article.hero).toBeNull();
    expect((await latestArticles(db, 1))[0]).toMatchObject({ id: article.id, hero: null });
    const generation = await contentGeneration(db);

    const set = await setArticleImage(db, EDITOR, article.id, hero.id, NOW);
    expect(set).toEqual({ ok: true, imageId: hero.id, changed: true });
    expect(await contentGeneration(db)).toBe(generation + 1);

    const ref = { id: hero.id, width: 1600, height: 900, alt: "A harbour at dawn" };
    expect((await pageOf(db)).article.hero).toEqual(ref);
    expect((await latestArticles(db, 1))[0]!.hero).toEqual(ref);
    // The other instance keeps its page until its next reading of the generation.
    expect((await pageOf(other)).article.hero).toBeNull();
    aSecondPasses();
    expect((await pageOf(other)).article.hero).toEqual(ref);

    const record = await db.selectFrom("article_record").select(["version"]).where("id", "=", article.id).executeTakeFirstOrThrow();
    expect(record.version).toBe(article.version);
    expect(await db.selectFrom("article_revision").select("id").where("article_id", "=", article.id).execute()).toEqual([]);
    const [row] = await auditRows("article.image");
    expect(row).toMatchObject({
      actor: EDITOR.label,
      subject: `article:${article.id}`,
      before: { imageId: null },
      after: { imageId: hero.id },
    });
  });

  it("does nothing for the hero it already has, and removing it brings the drawn art back", async () => {
    const generation = await contentGeneration(db);
    expect(await setArticleImage(db, EDITOR, article.id, hero.id, NOW)).toEqual({ ok: true, imageId: hero.id, changed: false });
    expect(await contentGeneration(db)).toBe(generation);
    expect(await auditRows("article.image")).toHaveLength(1);

    expect(await setArticleImage(db, EDITOR, article.id, null, NOW)).toEqual({ ok: true, imageId: null, changed: true });
    expect(await contentGeneration(db)).toBe(generation + 1);
    expect((await pageOf(db)).article.hero).toBeNull();
    expect((await auditRows("article.image"))[0]).toMatchObject({ before: { imageId: hero.id }, after: { imageId: null } });
  });

  it("sets a draft's hero without telling readers' caches (they cannot see it)", async () => {
    const draft = await db
      .selectFrom("article_record")
      .select("id")
      .where("status", "=", "published")
      .where("id", "!=", article.id)
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable("article_record").set({ status: "draft" }).where("id", "=", draft.id).execute();
    const generation = await contentGeneration(db);
    expect(await setArticleImage(db, EDITOR, draft.id, hero.id, NOW)).toMatchObject({ ok: true, changed: true });
    expect(await contentGeneration(db)).toBe(generation);
    expect((await articlePicture(db, draft.id))!.hero).toEqual({ id: hero.id, width: 1600, height: 900, alt: "A harbour at dawn" });
    // The view readers read carries the hero of published rows alone.
    expect(await db.selectFrom("article").select("hero_image_id").where("id", "=", draft.id).executeTakeFirst()).toBeUndefined();
  });
});

describe(`an author's photo on ${dialectName}`, () => {
  it("is set by slug or id, shows beside the author's bio, and is removed", async () => {
    expect(await setAuthorPhoto(db, EDITOR, "no-such-author", portrait.id, NOW)).toEqual({ ok: false, reason: "missing-author" });
    expect(await setAuthorPhoto(db, EDITOR, author.slug, "nope", NOW)).toEqual({ ok: false, reason: "missing-image" });
    expect((await pageOf(db)).article.authors[0]).toMatchObject({ name: author.name, photo: null });

    const generation = await contentGeneration(db);
    expect(await setAuthorPhoto(db, EDITOR, author.slug, portrait.id, NOW)).toEqual({ ok: true, imageId: portrait.id, changed: true });
    expect(await contentGeneration(db)).toBe(generation + 1);
    const photo = { id: portrait.id, width: 600, height: 600, alt: null };
    expect((await pageOf(db)).article.authors[0]).toMatchObject({ name: author.name, photo });
    expect(await authorPicture(db, author.id)).toEqual({ ...author, photo });
    expect((await auditRows("author.photo"))[0]).toMatchObject({
      subject: `author:${author.slug}`,
      before: { imageId: null },
      after: { imageId: portrait.id },
    });

    expect(await setAuthorPhoto(db, EDITOR, author.id, null, NOW)).toEqual({ ok: true, imageId: null, changed: true });
    expect((await pageOf(db)).article.authors[0]!.photo).toBeNull();
    expect(await auditRows("author.photo")).toHaveLength(2);
  });
});
