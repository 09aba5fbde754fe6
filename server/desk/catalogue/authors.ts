import type { Database } from "~/server/db/connection";
import { noteContentChanged } from "~/server/content/content-generation";
import { recordAudit } from "~/server/desk/audit";
import type { AuthorFields } from "~/shared/catalogue-fields";
import { slugify } from "~/shared/slugs";
import {
  catalogueChanged,
  changes,
  containsText,
  withNextId,
  type Editor,
  type LastSave,
  type Listing,
  type ListQuery,
  type SaveResult,
} from "./common";

// Authors at the desk and through the Admin API (ADR 078). An author's slug is how articles,
// the content files and the API name them; it is made once, with the author, and never changes.
// Every save names the version it read, and a stale one writes nothing.

export interface DeskAuthor extends LastSave {
  id: number;
  slug: string;
  name: string;
  role: string;
  bio: string;
}

export interface AuthorListing extends DeskAuthor {
  /** How many articles name them. */
  articles: number;
}

/** What a save may change: the slug is not among them. */
export interface AuthorChange {
  version: number;
  name?: string;
  role?: string;
  bio?: string;
}

const SLUG_TAKEN = "Another author has this slug: choose another.";
const NO_SLUG = "The name makes no slug: enter one.";

function matching(db: Database, q: string | undefined) {
  const select = db.selectFrom("author");
  return q ? select.where((eb) => containsText([eb.ref("author.name"), eb.ref("author.slug"), eb.ref("author.role")], q)) : select;
}

/** One page of authors by name, and how many match in all. */
export async function listAuthors(db: Database, query: ListQuery): Promise<Listing<AuthorListing>> {
  const [rows, count] = await Promise.all([
    matching(db, query.q)
      .select((eb) => [
        "author.id",
        "author.slug",
        "author.name",
        "author.role",
        "author.bio",
        "author.version",
        "author.updated_at",
        "author.updated_by_name",
        eb
          .selectFrom("article_author")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("article_author.author_id", "=", "author.id")
          .as("articles"),
      ])
      .orderBy("author.name")
      .orderBy("author.id")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query.q)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map(({ updated_at, updated_by_name, articles, ...row }) => ({
      ...row,
      updatedAt: updated_at,
      updatedBy: updated_by_name,
      articles: Number(articles ?? 0),
    })),
  };
}

export async function getAuthor(db: Database, id: number): Promise<DeskAuthor | undefined> {
  const row = await db
    .selectFrom("author")
    .select(["id", "slug", "name", "role", "bio", "version", "updated_at", "updated_by_name"])
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      slug: row.slug,
      name: row.name,
      role: row.role,
      bio: row.bio,
      version: row.version,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by_name,
    }
  );
}

const audited = (author: Pick<DeskAuthor, "name" | "slug" | "role" | "bio">) => ({
  name: author.name,
  slug: author.slug,
  role: author.role,
  bio: author.bio,
});

export async function createAuthor(db: Database, editor: Editor, fields: AuthorFields, now: Date): Promise<SaveResult<DeskAuthor>> {
  const slug = fields.slug ?? slugify(fields.name);
  if (!slug) return { ok: false, reason: "invalid", fields: { slug: [NO_SLUG] } };
  let generation: number | null = null;
  const result = await withNextId(db, "author", async (tx, id): Promise<SaveResult<DeskAuthor>> => {
    const taken = await tx.selectFrom("author").select("id").where("slug", "=", slug).executeTakeFirst();
    if (taken) return { ok: false, reason: "invalid", fields: { slug: [SLUG_TAKEN] } };
    const author: DeskAuthor = {
      id,
      slug,
      name: fields.name,
      role: fields.role,
      bio: fields.bio,
      version: 1,
      updatedAt: now.toISOString(),
      updatedBy: editor.name,
    };
    await tx
      .insertInto("author")
      .values({
        id,
        slug,
        name: author.name,
        role: author.role,
        bio: author.bio,
        version: 1,
        updated_at: author.updatedAt,
        updated_by_name: editor.name,
      })
      .execute();
    await recordAudit(tx, { actor: editor.actor, action: "author.create", subject: `author:${slug}`, after: audited(author) }, now);
    generation = await catalogueChanged(tx, now);
    return { ok: true, value: author, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

/**
 * Saves the fields given over the version read. Nothing changed writes nothing (no new version,
 * no audit row); a version that is not the author's now writes nothing either and answers what is there.
 */
export async function updateAuthor(
  db: Database,
  editor: Editor,
  id: number,
  change: AuthorChange,
  now: Date,
): Promise<SaveResult<DeskAuthor>> {
  let generation: number | null = null;
  const result = await db.transaction().execute(async (tx): Promise<SaveResult<DeskAuthor>> => {
    const current = await getAuthor(tx, id);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== change.version) return { ok: false, reason: "stale", current };
    const next = {
      name: change.name ?? current.name,
      slug: current.slug,
      role: change.role ?? current.role,
      bio: change.bio ?? current.bio,
    };
    const diff = changes(audited(current), next);
    if (!diff) return { ok: true, value: current, changed: false };
    const updated = await tx
      .updateTable("author")
      .set((eb) => ({
        name: next.name,
        role: next.role,
        bio: next.bio,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", id)
      .where("version", "=", change.version)
      .executeTakeFirst();
    // Another save took this version between the read and the write (PostgreSQL waits for it).
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getAuthor(tx, id))! };
    await recordAudit(tx, { actor: editor.actor, action: "author.update", subject: `author:${current.slug}`, ...diff }, now);
    const bylines =
      next.name === current.name
        ? []
        : await tx.selectFrom("article_author").select("article_id as id").where("author_id", "=", id).execute();
    generation = await catalogueChanged(tx, now, bylines);
    return {
      ok: true,
      value: { ...current, ...next, version: current.version + 1, updatedAt: now.toISOString(), updatedBy: editor.name },
      changed: true,
    };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}
