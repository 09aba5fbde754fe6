import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { recordAudit, type AuditActor } from "~/server/desk/audit";
import { inTransaction } from "~/server/desk/articles/write";
import { reindexArticle } from "~/server/search/documents";
import type { SeedAuthor, SeedTopic } from "~/server/seed/content-source";
import { topicSlug } from "~/shared/slugs";

// The import's own writes of authors and topics, by slug: made when new, changed when they
// differ, each in a transaction with its audit row ("author:slug", "topic:slug") and the content
// generation counted up. A renamed author or topic has its articles' search entries rewritten,
// since they hold the names. (The desk's catalogue domain, server/desk/catalogue, does the same
// for its forms, and an import's change is a new version there too.)

export type PutOutcome = "created" | "updated" | "unchanged";

/** The keys whose values differ, as two objects holding only those. */
function changed<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } | null {
  const keys = Object.keys(after).filter((key) => before[key] !== after[key]);
  if (keys.length === 0) return null;
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])) as Partial<T>,
    after: Object.fromEntries(keys.map((key) => [key, after[key]])) as Partial<T>,
  };
}

/** Makes other writers of `table` wait until this transaction ends, so two new rows never take one id. */
async function nextId(tx: Database, table: "author" | "topic"): Promise<number> {
  if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended(${`${table}:ids`}, 0))`.execute(tx);
  const row = await tx
    .selectFrom(table)
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  return Number(row.id ?? 0) + 1;
}

/** A change as the desk's own saves record it (ADR 078): a new version, so a form opened before the import sees it was changed. */
const saved = <T extends object>(values: T, actor: AuditActor, now: Date) => ({
  ...values,
  version: sql<number>`version + 1`,
  updated_at: now.toISOString(),
  updated_by_name: actor.label,
});

async function reindexAll(tx: Database, articleIds: { id: number }[]): Promise<void> {
  for (const { id } of articleIds) await reindexArticle(tx, id);
}

export function putAuthor(db: Database, actor: AuditActor, author: SeedAuthor, now: Date): Promise<PutOutcome> {
  const wanted = { name: author.name, role: author.role, bio: author.bio };
  const subject = `author:${author.slug}`;
  return inTransaction(db, async (tx) => {
    const current = await tx.selectFrom("author").select(["id", "name", "role", "bio"]).where("slug", "=", author.slug).executeTakeFirst();
    if (!current) {
      await tx
        .insertInto("author")
        .values({ id: await nextId(tx, "author"), slug: author.slug, ...wanted })
        .execute();
      await recordAudit(tx, { actor, action: "author.create", subject, after: wanted }, now);
      return { result: "created" as const, generation: await bumpContentGeneration(tx, now) };
    }
    const diff = changed({ name: current.name, role: current.role, bio: current.bio }, wanted);
    if (!diff) return { result: "unchanged" as const, generation: null };
    await tx
      .updateTable("author")
      .set(saved(wanted, actor, now))
      .where("id", "=", current.id)
      .execute();
    await recordAudit(tx, { actor, action: "author.update", subject, ...diff }, now);
    if (diff.after.name !== undefined)
      await reindexAll(tx, await tx.selectFrom("article_author").select("article_id as id").where("author_id", "=", current.id).execute());
    return { result: "updated" as const, generation: await bumpContentGeneration(tx, now) };
  });
}

/** A topic (or subject) by its slug; its subject, named in `topic.subject`, is written first. */
export function putTopic(db: Database, actor: AuditActor, topic: SeedTopic, now: Date): Promise<PutOutcome> {
  const slug = topicSlug(topic.name);
  const subject = `topic:${slug}`;
  return inTransaction(db, async (tx) => {
    const parent =
      topic.subject === null
        ? null
        : (await tx.selectFrom("topic").select("id").where("slug", "=", topicSlug(topic.subject)).executeTakeFirstOrThrow()).id;
    const wanted = {
      name: topic.name,
      description: topic.description,
      subscriber_only: topic.subscriberOnly ? 1 : 0,
      executive_only: topic.executiveOnly ? 1 : 0,
      subject_id: parent,
    } as const;
    const current = await tx
      .selectFrom("topic")
      .select(["id", "name", "description", "subscriber_only", "executive_only", "subject_id"])
      .where("slug", "=", slug)
      .executeTakeFirst();
    const audited = (row: typeof wanted | NonNullable<typeof current>) => ({
      name: row.name,
      description: row.description,
      subscriberOnly: Boolean(row.subscriber_only),
      executiveOnly: Boolean(row.executive_only),
      subjectId: row.subject_id,
    });
    if (!current) {
      await tx
        .insertInto("topic")
        .values({ id: await nextId(tx, "topic"), slug, ...wanted })
        .execute();
      await recordAudit(tx, { actor, action: "topic.create", subject, after: audited(wanted) }, now);
      return { result: "created" as const, generation: await bumpContentGeneration(tx, now) };
    }
    const diff = changed(audited(current), audited(wanted));
    if (!diff) return { result: "unchanged" as const, generation: null };
    await tx
      .updateTable("topic")
      .set(saved(wanted, actor, now))
      .where("id", "=", current.id)
      .execute();
    await recordAudit(tx, { actor, action: "topic.update", subject, ...diff }, now);
    if (diff.after.name !== undefined)
      await reindexAll(tx, await tx.selectFrom("article_topic").select("article_id as id").where("topic_id", "=", current.id).execute());
    return { result: "updated" as const, generation: await bumpContentGeneration(tx, now) };
  });
}
