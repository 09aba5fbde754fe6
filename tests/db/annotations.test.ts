import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, type User } from "~/server/accounts/users";
import {
  addAnnotation,
  annotationsForArticle,
  annotationsForUser,
  deleteAnnotation,
  type Annotation,
  type NewAnnotation,
} from "~/server/library/annotations";
import type { Database } from "~/server/db/connection";
import { articlePath } from "~/shared/urls";
import { seededTestDatabase } from "~/tests/helpers/test-db";

let db: Database;
let close: () => Promise<void>;
let articles: { id: number; title: string; year: number; month: number; slug: string }[];

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  articles = await db.selectFrom("article").select(["id", "title", "year", "month", "slug"]).orderBy("id").limit(2).execute();
  expect(articles).toHaveLength(2);
});
afterAll(() => close());

const article = (i: number) => articles[i]!;

async function newReader(email: string): Promise<User> {
  const user = await insertUser(db, { firstName: "Note", lastName: "Taker", email, password: "Correct7horse!", optIn: false });
  if (!user) throw new Error("user not created");
  return user;
}

async function add(input: NewAnnotation, at?: Date): Promise<Annotation> {
  const result = await addAnnotation(db, input, at);
  if (!result.ok) throw new Error(result.error);
  return result.annotation;
}

describe("adding and listing notes", () => {
  it("stores a trimmed note and lists the reader's notes on an article in paragraph order", async () => {
    const user = await newReader("reader@example.org");
    const other = await newReader("other.reader@example.org");
    const base = { userId: user.id, articleId: article(0).id };
    const third = await add({ ...base, paragraph: 7, quote: "", note: "Whole paragraph." }, new Date("2026-01-01T10:00:00Z"));
    const first = await add(
      { ...base, paragraph: 2, quote: "  a quoted line ", note: "  Worth rereading.\n" },
      new Date("2026-01-03T10:00:00Z"),
    );
    const second = await add({ ...base, paragraph: 2, quote: "later", note: "Second thought." }, new Date("2026-01-04T10:00:00Z"));
    await add({ userId: user.id, articleId: article(1).id, paragraph: 0, quote: "", note: "Elsewhere." });
    await add({ userId: other.id, articleId: article(0).id, paragraph: 1, quote: "", note: "Not mine." });

    expect(first).toEqual({
      id: first.id,
      articleId: article(0).id,
      paragraph: 2,
      quote: "a quoted line",
      note: "Worth rereading.",
      createdAt: "2026-01-03T10:00:00.000Z",
    });
    expect(await annotationsForArticle(db, user.id, article(0).id)).toEqual([first, second, third]);
    expect((await annotationsForArticle(db, other.id, article(0).id)).map((a) => a.note)).toEqual(["Not mine."]);
  });

  it("lists all the reader's notes newest first with the article, a page at a time", async () => {
    const user = await newReader("pages@example.org");
    await add({
      userId: (await newReader("pages.other@example.org")).id,
      articleId: article(0).id,
      paragraph: 0,
      quote: "",
      note: "Other's.",
    });
    const notes = [];
    for (let day = 1; day <= 5; day++) {
      const articleIndex = day % 2;
      notes.push(
        await add(
          { userId: user.id, articleId: article(articleIndex).id, paragraph: day, quote: "", note: `Day ${day}` },
          new Date(`2026-02-0${day}T08:00:00Z`),
        ),
      );
    }

    const firstPage = await annotationsForUser(db, user.id, { limit: 2, offset: 0 });
    expect(firstPage.total).toBe(5);
    expect(firstPage.annotations.map((a) => a.note)).toEqual(["Day 5", "Day 4"]);
    expect(firstPage.annotations[0]).toEqual({ ...notes[4], articleTitle: article(1).title, articleUrl: articlePath(article(1)) });
    expect(firstPage.annotations[1]).toMatchObject({ articleTitle: article(0).title, articleUrl: articlePath(article(0)) });

    const lastPage = await annotationsForUser(db, user.id, { limit: 2, offset: 4 });
    expect(lastPage).toMatchObject({ total: 5 });
    expect(lastPage.annotations.map((a) => a.note)).toEqual(["Day 1"]);
    expect(await annotationsForUser(db, (await newReader("no.notes@example.org")).id, { limit: 10, offset: 0 })).toEqual({
      total: 0,
      annotations: [],
    });
  });
});

describe("posting the same note again", () => {
  it("keeps one note, and answers with the one already kept", async () => {
    const reader = await newReader("note.twice@example.org");
    const input = { userId: reader.id, articleId: article(0).id, paragraph: 2, quote: "a passage", note: "Worth rereading." };
    const first = await add(input);
    const again = await add({ ...input, note: "  Worth rereading.  " });
    expect(again.id).toBe(first.id);
    expect(await annotationsForArticle(db, reader.id, article(0).id)).toHaveLength(1);
    // A different note on the same passage is a note of its own.
    await add({ ...input, note: "And cite it in the review." });
    expect(await annotationsForArticle(db, reader.id, article(0).id)).toHaveLength(2);
  });
});

describe("deleting notes", () => {
  it("lets only the owner delete a note", async () => {
    const owner = await newReader("owner@example.org");
    const stranger = await newReader("stranger@example.org");
    const kept = await add({ userId: owner.id, articleId: article(0).id, paragraph: 3, quote: "", note: "Keep me." });
    const gone = await add({ userId: owner.id, articleId: article(0).id, paragraph: 4, quote: "", note: "Delete me." });

    expect(await deleteAnnotation(db, stranger.id, kept.id)).toBe(false);
    expect(await deleteAnnotation(db, owner.id, "no-such-note")).toBe(false);
    expect(await deleteAnnotation(db, owner.id, gone.id)).toBe(true);
    expect(await deleteAnnotation(db, owner.id, gone.id)).toBe(false);
    expect(await annotationsForArticle(db, owner.id, article(0).id)).toEqual([kept]);
  });
});

describe("validation", () => {
  it("refuses bad input with a clear message and stores nothing", async () => {
    const user = await newReader("careless@example.org");
    const valid = { userId: user.id, articleId: article(0).id, paragraph: 0, quote: "", note: "Fine." };
    const cases: [Partial<NewAnnotation>, RegExp][] = [
      [{ paragraph: -1 }, /paragraph must be a whole number from 0 to 9999/],
      [{ paragraph: 1.5 }, /paragraph/],
      [{ paragraph: 10_000 }, /paragraph/],
      [{ paragraph: Number.NaN }, /paragraph/],
      [{ note: "" }, /Write a note/],
      [{ note: "   \n\t " }, /Write a note/],
      [{ note: "x".repeat(2_001) }, /note is too long: at most 2,000 characters/],
      [{ quote: "q".repeat(501) }, /quoted passage is too long: at most 500 characters/],
      [{ articleId: 987_654_321 }, /article does not exist/],
      [{ articleId: Number.NaN }, /article does not exist/],
    ];
    for (const [change, message] of cases) {
      const result = await addAnnotation(db, { ...valid, ...change });
      expect(result.ok, JSON.stringify(change).slice(0, 60)).toBe(false);
      if (!result.ok) expect(result.error).toMatch(message);
    }
    expect(await annotationsForUser(db, user.id, { limit: 10, offset: 0 })).toEqual({ total: 0, annotations: [] });
  });

  it("accepts the limits themselves, measured after trimming", async () => {
    const user = await newReader("precise@example.org");
    const result = await addAnnotation(db, {
      userId: user.id,
      articleId: article(0).id,
      paragraph: 9_999,
      quote: ` ${"q".repeat(500)} `,
      note: `  ${"n".repeat(2_000)}  `,
    });
    expect(result).toMatchObject({ ok: true, annotation: { paragraph: 9_999 } });
    if (result.ok) {
      expect(result.annotation.quote).toHaveLength(500);
      expect(result.annotation.note).toHaveLength(2_000);
    }
  });
});
