import type { Database } from "~/server/db/connection";
import type { AuditActor } from "~/server/desk/audit";
import { createAuthor, updateAuthor } from "~/server/desk/catalogue/authors";
import type { Editor, LastSave, SaveResult } from "~/server/desk/catalogue/common";
import { createTopic, updateTopic } from "~/server/desk/catalogue/topics";
import type { SeedAuthor, SeedTopic } from "~/server/seed/content-source";
import { topicSlug } from "~/shared/slugs";

// The import's authors and topics, by slug, through the desk's catalogue domain (ADR 078, 080):
// made when new, saved over the version just read when they differ, so that each change is the
// desk's own: a new version, its audit row, the content generation counted up and the search
// entries of a renamed one's articles rewritten. A file equal to the row writes nothing, and is
// told apart by one read, not a save's transaction.

/** What became of one author or topic; `failed` says why it was not applied (saved meanwhile, a rule broken). */
export type PutOutcome = "created" | "updated" | "unchanged" | { failed: string };

/** The command line saves in its own name, as the audit log names it. */
const importer = (actor: AuditActor): Editor => ({ actor, name: actor.label });

/** `which` names the row in a failure: 'the topic "Pricing"'. */
function outcome(saved: SaveResult<LastSave>, made: boolean, which: string): PutOutcome {
  if (saved.ok) return made ? "created" : saved.changed ? "updated" : "unchanged";
  switch (saved.reason) {
    case "invalid":
      return { failed: `${which}: ${Object.values(saved.fields).flat().join(" ")}` };
    case "stale":
      return { failed: `${saved.current.updatedBy ?? "someone else"} saved ${which} meanwhile; run the import again.` };
    case "not-found":
      return { failed: `${which} was deleted meanwhile` };
  }
}

export async function putAuthor(db: Database, actor: AuditActor, author: SeedAuthor, now: Date): Promise<PutOutcome> {
  const fields = { name: author.name, role: author.role, bio: author.bio };
  const row = await db
    .selectFrom("author")
    .select(["id", "version", "name", "role", "bio"])
    .where("slug", "=", author.slug)
    .executeTakeFirst();
  if (row && row.name === fields.name && row.role === fields.role && row.bio === fields.bio) return "unchanged";
  const saved = row
    ? await updateAuthor(db, importer(actor), row.id, { version: row.version, ...fields }, now)
    : await createAuthor(db, importer(actor), { ...fields, slug: author.slug }, now);
  return outcome(saved, !row, `the author "${author.slug}"`);
}

/** A topic (or subject) by its slug; its subject, named in `topic.subject`, is put first. */
export async function putTopic(db: Database, actor: AuditActor, topic: SeedTopic, now: Date): Promise<PutOutcome> {
  const fields = {
    name: topic.name,
    description: topic.description,
    subject: topic.subject,
    subscriberOnly: topic.subscriberOnly,
    executiveOnly: topic.executiveOnly,
  };
  const row = await db
    .selectFrom("topic as t")
    .leftJoin("topic as s", "s.id", "t.subject_id")
    .select(["t.id", "t.version", "t.name", "t.description", "t.subscriber_only", "t.executive_only", "s.name as subject"])
    .where("t.slug", "=", topicSlug(topic.name))
    .executeTakeFirst();
  if (
    row &&
    row.name === fields.name &&
    row.description === fields.description &&
    row.subject === fields.subject &&
    Boolean(row.subscriber_only) === fields.subscriberOnly &&
    Boolean(row.executive_only) === fields.executiveOnly
  )
    return "unchanged";
  const saved = row
    ? await updateTopic(db, importer(actor), row.id, { version: row.version, ...fields }, now)
    : await createTopic(db, importer(actor), fields, now);
  return outcome(saved, !row, `the topic "${topic.name}"`);
}
