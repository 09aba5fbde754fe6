import type { Database } from "~/server/db/connection";
import { ARTICLE_STATUS_NAMES, type ArticleStatus } from "~/shared/article-fields";
import { SCHEDULER, type AuditAction, type AuditActor } from "../audit";
import { recordChange } from "./history";
import { getDeskArticle } from "./read";
import type { DeskArticle, DuePublished, PublishResult, Refusal } from "./types";
import { inTransaction, Outcome } from "./write";

// The states (ADR 076): draft → scheduled → published → unpublished, and back to published.
// Each move is a conditional update on the state it starts from, so that of two moves at once
// (two editors, two schedulers) one happens and the other finds the state gone.

const refused = (status: ArticleStatus, message: string): Refusal => ({ ok: false, reason: "state", status, message });

interface Move {
  from: readonly ArticleStatus[];
  to: ArticleStatus;
  publishAt: string | null;
  action: AuditAction;
}

async function move(
  db: Database,
  actor: AuditActor,
  id: number,
  plan: (article: DeskArticle) => Move | Refusal,
  now: Date,
): Promise<PublishResult> {
  return inTransaction(db, async (tx) => {
    const before = await getDeskArticle(tx, id);
    if (!before) throw new Outcome<PublishResult>({ ok: false, reason: "missing" });
    const step = plan(before);
    if ("ok" in step) throw new Outcome<PublishResult>(step);
    const updated = await tx
      .updateTable("article_record")
      .set((eb) => ({
        status: step.to,
        publish_at: step.publishAt,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by: actor.id,
        updated_by_name: actor.label,
      }))
      .where("id", "=", id)
      .where("status", "in", step.from)
      .where("version", "=", before.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const current = (await getDeskArticle(tx, id))!;
      throw new Outcome<PublishResult>(
        refused(current.status, `The article changed meanwhile; it is now ${ARTICLE_STATUS_NAMES[current.status].toLowerCase()}.`),
      );
    }
    const after = (await getDeskArticle(tx, id))!;
    const generation = await recordChange(tx, { actor, action: step.action, before, after, now });
    return { result: { ok: true, article: after }, generation };
  });
}

/**
 * Publishes an article now, or, with `at` later than `now`, schedules it for then (a scheduled
 * article may be given another time). A published article is refused: it is live already.
 */
export function publishArticle(db: Database, actor: AuditActor, id: number, options: { at?: Date }, now: Date): Promise<PublishResult> {
  const later = options.at !== undefined && options.at.getTime() > now.getTime();
  return move(
    db,
    actor,
    id,
    (article) => {
      if (article.status === "published") return refused("published", "The article is published already.");
      if (later)
        return {
          from: ["draft", "scheduled", "unpublished"],
          to: "scheduled",
          publishAt: options.at!.toISOString(),
          action: "article.schedule",
        };
      return { from: ["draft", "scheduled", "unpublished"], to: "published", publishAt: null, action: "article.publish" };
    },
    now,
  );
}

/**
 * Takes a published article down (its address answers 410 from then on), or a scheduled one off
 * the schedule (back to a draft). A draft or an unpublished article is refused.
 */
export function unpublishArticle(db: Database, actor: AuditActor, id: number, now: Date): Promise<PublishResult> {
  return move(
    db,
    actor,
    id,
    (article) => {
      if (article.status === "published") return { from: ["published"], to: "unpublished", publishAt: null, action: "article.unpublish" };
      if (article.status === "scheduled") return { from: ["scheduled"], to: "draft", publishAt: null, action: "article.unschedule" };
      return refused(
        article.status,
        `The article is ${ARTICLE_STATUS_NAMES[article.status].toLowerCase()}: there is nothing to unpublish.`,
      );
    },
    now,
  );
}

/**
 * Publishes every scheduled article whose time has come, each in a transaction of its own. Run
 * by every instance's scheduled jobs at once, each article is still published once: the
 * conditional update on its state lets one run through and finds nothing for the others.
 */
export async function publishDueArticles(db: Database, now: Date): Promise<DuePublished> {
  const due = await db
    .selectFrom("article_record")
    .select("id")
    .where("status", "=", "scheduled")
    .where("publish_at", "<=", now.toISOString())
    .orderBy("publish_at")
    .orderBy("id")
    .execute();
  const published: number[] = [];
  for (const { id } of due) {
    const done = await inTransaction(db, async (tx) => {
      const before = await getDeskArticle(tx, id);
      if (!before) throw new Outcome(false);
      const updated = await tx
        .updateTable("article_record")
        .set((eb) => ({
          status: "published",
          publish_at: null,
          version: eb("version", "+", 1),
          updated_at: now.toISOString(),
          updated_by: SCHEDULER.id,
          updated_by_name: SCHEDULER.label,
        }))
        .where("id", "=", id)
        .where("status", "=", "scheduled")
        .where("publish_at", "<=", now.toISOString())
        // Saved meanwhile: the next run publishes it, with what it holds then.
        .where("version", "=", before.version)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new Outcome(false);
      const after = (await getDeskArticle(tx, id))!;
      const generation = await recordChange(tx, { actor: SCHEDULER, action: "article.publish", before, after, now });
      return { result: true, generation };
    });
    if (done) published.push(id);
  }
  return { published };
}
