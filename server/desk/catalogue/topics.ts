import type { Database } from "~/server/db/connection";
import { noteContentChanged } from "~/server/content/content-generation";
import { recordAudit } from "~/server/desk/audit";
import type { TopicFields, TopicPatch } from "~/shared/catalogue-fields";
import { topicKey, topicSlug } from "~/shared/slugs";
import { topicPath } from "~/shared/urls";
import {
  catalogueChanged,
  changes,
  containsText,
  withNextId,
  type Editor,
  type FieldErrors,
  type LastSave,
  type Listing,
  type ListQuery,
  type SaveResult,
} from "./common";

// Topics at the desk and through the Admin API (ADR 078). A topic's slug is the spec's rule
// applied to its name, so a rename moves its page: the slug it had is kept (topic_former_slug)
// and its old addresses answer 301. Two levels (ADR 061): a subject has no subject; a topic
// belongs to one and takes its subject's subscriber and executive rules.

export interface DeskTopic extends LastSave {
  id: number;
  slug: string;
  name: string;
  description: string;
  /** The subject's name; null for a subject. */
  subject: string | null;
  subscriberOnly: boolean;
  executiveOnly: boolean;
  /** The topic's page, a path. */
  path: string;
  /** Slugs it had before renames: their pages lead to this one. */
  formerSlugs: string[];
}

export interface TopicListing extends DeskTopic {
  articles: number;
}

export interface Subject {
  id: number;
  name: string;
}

const NAME_TAKEN = (other: string) => `The topic ${other} has this name's page already: choose another name.`;
const NO_SUBJECT = "Choose a subject from the list, or none for a subject.";
const OWN_SUBJECT = "A topic cannot be its own subject.";
const HAS_TOPICS = (n: number) => `This subject has ${n} ${n === 1 ? "topic" : "topics"}: it stays a subject until they move.`;
const PRIMARY = (n: number) =>
  `${n} ${n === 1 ? "article files" : "articles file"} under this subject first: it stays a subject (an article's first topic is a subject).`;

function matching(db: Database, q: string | undefined) {
  const select = db.selectFrom("topic");
  return q ? select.where((eb) => containsText([eb.ref("topic.name"), eb.ref("topic.slug")], q)) : select;
}

const TOPIC_COLUMNS = [
  "topic.id",
  "topic.slug",
  "topic.name",
  "topic.description",
  "subject.name as subject",
  "topic.subscriber_only",
  "topic.executive_only",
  "topic.version",
  "topic.updated_at",
  "topic.updated_by_name",
] as const;

type TopicRow = {
  id: number;
  slug: string;
  name: string;
  description: string;
  subject: string | null;
  subscriber_only: number;
  executive_only: number;
  version: number;
  updated_at: string | null;
  updated_by_name: string | null;
};

const deskTopic = (row: TopicRow, formerSlugs: string[]): DeskTopic => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  subject: row.subject,
  subscriberOnly: row.subscriber_only === 1,
  executiveOnly: row.executive_only === 1,
  path: topicPath(row.slug),
  formerSlugs,
  version: row.version,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by_name,
});

/** The slugs these topics had before, each topic's oldest first. */
async function formerSlugsOf(db: Database, ids: number[]): Promise<Map<number, string[]>> {
  const bySlug = new Map<number, string[]>();
  if (ids.length === 0) return bySlug;
  const rows = await db
    .selectFrom("topic_former_slug")
    .select(["topic_id", "slug"])
    .where("topic_id", "in", ids)
    .orderBy("created_at")
    .orderBy("slug")
    .execute();
  for (const row of rows) bySlug.set(row.topic_id, [...(bySlug.get(row.topic_id) ?? []), row.slug]);
  return bySlug;
}

/** One page of topics by name, and how many match in all. */
export async function listDeskTopics(db: Database, query: ListQuery): Promise<Listing<TopicListing>> {
  const [rows, count] = await Promise.all([
    matching(db, query.q)
      .leftJoin("topic as subject", "subject.id", "topic.subject_id")
      .select((eb) => [
        ...TOPIC_COLUMNS,
        eb
          .selectFrom("article_topic")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("article_topic.topic_id", "=", "topic.id")
          .as("articles"),
      ])
      .orderBy("topic.name")
      .orderBy("topic.id")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching(db, query.q)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const former = await formerSlugsOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    total: Number(count.n),
    items: rows.map((row) => ({ ...deskTopic(row, former.get(row.id) ?? []), articles: Number(row.articles ?? 0) })),
  };
}

/** The subjects by name: the choices for a topic's subject. */
export async function listSubjects(db: Database): Promise<Subject[]> {
  return db.selectFrom("topic").select(["id", "name"]).where("subject_id", "is", null).orderBy("name").execute();
}

export async function getDeskTopic(db: Database, id: number): Promise<DeskTopic | undefined> {
  const row = await db
    .selectFrom("topic")
    .leftJoin("topic as subject", "subject.id", "topic.subject_id")
    .select(TOPIC_COLUMNS)
    .where("topic.id", "=", id)
    .executeTakeFirst();
  return row && deskTopic(row, (await formerSlugsOf(db, [id])).get(id) ?? []);
}

interface Placed {
  slug: string;
  subjectId: number | null;
  /** The subject's name as stored. */
  subject: string | null;
  subscriberOnly: boolean;
  executiveOnly: boolean;
}

/**
 * The database's rules for a topic's fields: a name whose page no other topic has, a subject
 * that is one, and the two levels kept (a subject with topics, or that articles file under
 * first, stays a subject). `self` is the topic being saved; null for a new one.
 */
async function place(
  tx: Database,
  self: number | null,
  fields: TopicFields,
): Promise<{ ok: true; placed: Placed } | { ok: false; fields: FieldErrors }> {
  const errors: FieldErrors = {};
  const slug = topicSlug(fields.name);
  const key = topicKey(fields.name);
  const all = await tx.selectFrom("topic").select(["id", "name", "slug", "subject_id", "subscriber_only", "executive_only"]).execute();
  const clash = all.find((t) => t.id !== self && (t.slug === slug || topicKey(t.name) === key));
  if (clash) errors.name = [NAME_TAKEN(clash.name)];
  let subject: (typeof all)[number] | undefined;
  if (fields.subject !== null) {
    const wanted = fields.subject.toLowerCase();
    subject = all.find((t) => t.subject_id === null && t.name.toLowerCase() === wanted);
    if (self !== null && subject?.id === self) errors.subject = [OWN_SUBJECT];
    else if (!subject) errors.subject = [NO_SUBJECT];
    else if (self !== null) {
      const children = all.filter((t) => t.subject_id === self).length;
      const filed = children
        ? 0
        : Number(
            (
              await tx
                .selectFrom("article")
                .select((eb) => eb.fn.countAll<number>().as("n"))
                .where("primary_topic_id", "=", self)
                .executeTakeFirstOrThrow()
            ).n,
          );
      if (children > 0) errors.subject = [HAS_TOPICS(children)];
      else if (filed > 0) errors.subject = [PRIMARY(filed)];
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, fields: errors };
  return {
    ok: true,
    placed: {
      slug,
      subjectId: subject?.id ?? null,
      subject: subject?.name ?? null,
      subscriberOnly: subject ? subject.subscriber_only === 1 : fields.subscriberOnly,
      executiveOnly: subject ? subject.executive_only === 1 : fields.executiveOnly,
    },
  };
}

const flag = (value: boolean) => (value ? 1 : 0) as 0 | 1;

const audited = (t: Pick<DeskTopic, "name" | "slug" | "description" | "subject" | "subscriberOnly" | "executiveOnly">) => ({
  name: t.name,
  slug: t.slug,
  description: t.description,
  subject: t.subject,
  subscriberOnly: t.subscriberOnly,
  executiveOnly: t.executiveOnly,
});

/** A slug a topic now has is no longer any topic's former slug: the live page wins. */
const takeSlug = (tx: Database, slug: string) => tx.deleteFrom("topic_former_slug").where("slug", "=", slug).execute();

export async function createTopic(db: Database, editor: Editor, fields: TopicFields, now: Date): Promise<SaveResult<DeskTopic>> {
  let generation: number | null = null;
  const result = await withNextId(db, "topic", async (tx, id): Promise<SaveResult<DeskTopic>> => {
    const placed = await place(tx, null, fields);
    if (!placed.ok) return { ok: false, reason: "invalid", fields: placed.fields };
    const { slug, subjectId, subscriberOnly, executiveOnly } = placed.placed;
    await takeSlug(tx, slug);
    await tx
      .insertInto("topic")
      .values({
        id,
        slug,
        name: fields.name,
        description: fields.description,
        subject_id: subjectId,
        subscriber_only: flag(subscriberOnly),
        executive_only: flag(executiveOnly),
        version: 1,
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      })
      .execute();
    const topic = (await getDeskTopic(tx, id))!;
    await recordAudit(tx, { actor: editor.actor, action: "topic.create", subject: `topic:${slug}`, after: audited(topic) }, now);
    generation = await catalogueChanged(tx, now);
    return { ok: true, value: topic, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}

/**
 * Saves the fields given over the version read (as `updateAuthor`). A rename keeps the old slug
 * for the 301; a subject whose rules change carries them to its topics.
 */
export async function updateTopic(db: Database, editor: Editor, id: number, patch: TopicPatch, now: Date): Promise<SaveResult<DeskTopic>> {
  let generation: number | null = null;
  const result = await db.transaction().execute(async (tx): Promise<SaveResult<DeskTopic>> => {
    const current = await getDeskTopic(tx, id);
    if (!current) return { ok: false, reason: "not-found" };
    if (current.version !== patch.version) return { ok: false, reason: "stale", current };
    const fields: TopicFields = {
      name: patch.name ?? current.name,
      description: patch.description ?? current.description,
      subject: patch.subject === undefined ? current.subject : patch.subject,
      subscriberOnly: patch.subscriberOnly ?? current.subscriberOnly,
      executiveOnly: patch.executiveOnly ?? current.executiveOnly,
    };
    const placed = await place(tx, id, fields);
    if (!placed.ok) return { ok: false, reason: "invalid", fields: placed.fields };
    const { slug, subjectId, subject, subscriberOnly, executiveOnly } = placed.placed;
    const next = { ...fields, slug, subject, subscriberOnly, executiveOnly };
    const diff = changes(audited(current), audited(next));
    if (!diff) return { ok: true, value: current, changed: false };
    const updated = await tx
      .updateTable("topic")
      .set((eb) => ({
        slug,
        name: next.name,
        description: next.description,
        subject_id: subjectId,
        subscriber_only: flag(subscriberOnly),
        executive_only: flag(executiveOnly),
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: editor.name,
      }))
      .where("id", "=", id)
      .where("version", "=", patch.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, reason: "stale", current: (await getDeskTopic(tx, id))! };
    if (slug !== current.slug) {
      await takeSlug(tx, slug);
      await tx.insertInto("topic_former_slug").values({ slug: current.slug, topic_id: id, created_at: now.toISOString() }).execute();
    }
    let following = 0;
    if (subjectId === null && (subscriberOnly !== current.subscriberOnly || executiveOnly !== current.executiveOnly)) {
      const moved = await tx
        .updateTable("topic")
        .set((eb) => ({
          subscriber_only: flag(subscriberOnly),
          executive_only: flag(executiveOnly),
          version: eb("version", "+", 1),
          updated_at: now.toISOString(),
          updated_by_name: editor.name,
        }))
        .where("subject_id", "=", id)
        .executeTakeFirst();
      following = Number(moved.numUpdatedRows);
    }
    await recordAudit(
      tx,
      {
        actor: editor.actor,
        action: "topic.update",
        subject: `topic:${slug}`,
        before: diff.before,
        after: following > 0 ? { ...diff.after, topicsFollowing: following } : diff.after,
      },
      now,
    );
    const filed =
      next.name === current.name
        ? []
        : await tx.selectFrom("article_topic").select("article_id as id").where("topic_id", "=", id).execute();
    generation = await catalogueChanged(tx, now, filed);
    return { ok: true, value: (await getDeskTopic(tx, id))!, changed: true };
  });
  if (generation !== null) noteContentChanged(db, generation);
  return result;
}
