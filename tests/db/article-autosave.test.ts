import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import { connect, type Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import {
  autosaveArticle,
  createArticle,
  getDeskArticle,
  listRevisions,
  publishArticle,
  saveArticle,
  unpublishArticle,
} from "~/server/desk/articles";
import { suggestChoices } from "~/server/desk/article-choices";
import { AUTOSAVE_OFF } from "~/shared/article-vocabulary";
import type { ArticleFields } from "~/shared/article-fields";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { isolatedConnection } from "~/tests/helpers/test-db";

// Autosave in the editorial domain (ADR 085), on the real database: the Save button's version
// check, and the revisions it leaves: an editor's consecutive autosaves fold into one, which
// nothing else's change is ever folded across.

let db: Database;
let drop: () => Promise<void>;
let ada: AuditActor;
let grace: AuditActor;
let fields: ArticleFields;

const T0 = new Date("2031-05-02T09:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let slugs = 0;

beforeAll(async () => {
  const connection = await isolatedConnection("autosave");
  drop = connection.drop;
  db = connect(connection);
  const staff = async (firstName: string) => {
    const user = (await insertUser(db, {
      firstName,
      lastName: "Autosave",
      email: `${firstName.toLowerCase()}@autosave.example`,
      password: "Editor9!desk",
      optIn: false,
    }))!;
    return { id: user.id, label: user.email };
  };
  ada = await staff("Ada");
  grace = await staff("Grace");
  fields = await newArticleFields(db, { title: "Autosaved Ledgers", slug: "autosaved-ledgers", published: "2031-05-02" });
});

afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

async function draft(): Promise<number> {
  const created = await createArticle(db, ada, { ...fields, slug: `${fields.slug}-${++slugs}` }, at(0));
  if (!created.ok) throw new Error(JSON.stringify(created));
  return created.article.id;
}

const current = async (id: number) => (await getDeskArticle(db, id))!;
const revisions = async (id: number) =>
  (await listRevisions(db, id)).map((r) => ({ version: r.version, by: r.savedBy.id, autosaved: r.autosaved }));
const auditCount = async (action: string, id: number) =>
  (await db.selectFrom("desk_audit").select("id").where("action", "=", action).where("subject", "=", `article:${id}`).execute()).length;

describe("autosave", () => {
  it("folds an editor's consecutive autosaves into one revision, each still a version and an audit row", async () => {
    const id = await draft();
    const first = await autosaveArticle(db, ada, id, 1, { ...(await current(id)), body: "First paragraph, longer." }, at(1));
    expect(first).toMatchObject({ ok: true, article: { version: 2 } });
    const second = await autosaveArticle(db, ada, id, 2, { ...(await current(id)), body: "First paragraph, longer still." }, at(2));
    expect(second).toMatchObject({ ok: true, article: { version: 3 } });
    expect(await revisions(id)).toEqual([
      { version: 3, by: ada.id, autosaved: true },
      { version: 1, by: ada.id, autosaved: false },
    ]);
    const folded = (await listRevisions(db, id))[0]!;
    expect(folded.savedAt).toBe(at(2).toISOString());
    expect(await auditCount("article.autosave", id)).toBe(2);
  });

  it("starts a new revision after a Save, another editor's change, a state change or a pause of half an hour", async () => {
    const id = await draft();
    const edit = async (actor: AuditActor, version: number, body: string, minutes: number, how = autosaveArticle) =>
      expect(await how(db, actor, id, version, { ...(await current(id)), body }, at(minutes))).toMatchObject({ ok: true });
    await edit(ada, 1, "a", 1);
    await edit(ada, 2, "b", 2, saveArticle);
    await edit(ada, 3, "c", 3);
    await edit(grace, 4, "d", 4);
    await edit(ada, 5, "e", 5);
    expect(await publishArticle(db, ada, id, { at: at(60 * 24) }, at(6))).toMatchObject({ ok: true });
    expect(await unpublishArticle(db, ada, id, at(7))).toMatchObject({ ok: true, article: { status: "draft" } });
    await edit(ada, 8, "f", 8);
    await edit(ada, 9, "g", 8 + 30);
    await edit(ada, 10, "h", 8 + 59);
    expect(await revisions(id)).toEqual([
      { version: 11, by: ada.id, autosaved: true },
      { version: 9, by: ada.id, autosaved: true },
      { version: 8, by: ada.id, autosaved: false },
      { version: 7, by: ada.id, autosaved: false },
      { version: 6, by: ada.id, autosaved: true },
      { version: 5, by: grace.id, autosaved: true },
      { version: 4, by: ada.id, autosaved: true },
      { version: 3, by: ada.id, autosaved: false },
      { version: 2, by: ada.id, autosaved: true },
      { version: 1, by: ada.id, autosaved: false },
    ]);
  });

  it("never writes over a save it has not seen, and leaves a published or scheduled article to the Save button", async () => {
    const id = await draft();
    expect(await saveArticle(db, grace, id, 1, { ...(await current(id)), title: "Grace's Title" }, at(1))).toMatchObject({ ok: true });
    const stale = await autosaveArticle(db, ada, id, 1, { ...fields, slug: (await current(id)).slug, title: "Ada's Title" }, at(2));
    expect(stale).toMatchObject({ ok: false, reason: "conflict", conflict: { by: "Grace Autosave", current: { version: 2 } } });
    expect(await current(id)).toMatchObject({ title: "Grace's Title", version: 2 });

    expect(await publishArticle(db, grace, id, {}, at(3))).toMatchObject({ ok: true });
    const live = await autosaveArticle(db, ada, id, 3, { ...(await current(id)), title: "Half typed" }, at(4));
    expect(live).toEqual({ ok: false, reason: "state", status: "published", message: AUTOSAVE_OFF });
    expect(await current(id)).toMatchObject({ title: "Grace's Title", version: 3 });
    expect(await auditCount("article.autosave", id)).toBe(0);
  });
});

describe("the combobox's suggestions", () => {
  it("finds authors by name or slug and topics by name, those starting with the term first, in any case", async () => {
    const author = await db.selectFrom("author").select(["slug", "name"]).orderBy("id").executeTakeFirstOrThrow();
    const byName = await suggestChoices(db, "authors", author.name.slice(0, 4).toUpperCase());
    expect(byName[0]).toEqual({ value: author.slug, label: author.name, hint: author.slug });
    expect((await suggestChoices(db, "authors", author.slug)).map((s) => s.value)).toContain(author.slug);

    const subject = await db.selectFrom("topic").select("name").where("subject_id", "is", null).orderBy("id").executeTakeFirstOrThrow();
    const topics = await suggestChoices(db, "topics", subject.name.toLowerCase());
    expect(topics[0]).toEqual({ value: subject.name, label: subject.name, hint: "Subject" });
    for (const found of await suggestChoices(db, "topics", "e")) expect(found.label.toLowerCase()).toContain("e");
    expect((await suggestChoices(db, "topics", "e")).length).toBeLessThanOrEqual(8);

    // LIKE's own characters are only text here.
    expect(await suggestChoices(db, "authors", "%")).toEqual([]);
    expect(await suggestChoices(db, "topics", "_")).toEqual([]);
    expect(await suggestChoices(db, "topics", "   ")).toEqual([]);
  });
});
