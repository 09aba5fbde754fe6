import type { Database } from "~/server/db/connection";
import { bumpContentGeneration } from "~/server/content/content-generation";
import { HOME_COUNTS } from "~/server/content/home";
import { Outcome, inTransaction } from "~/server/desk/articles/write";
import { recordAudit, type AuditActor } from "../audit";
import { articlesInOrder, choiceProblem, type CuratedArticle } from "./articles";

// The home page's lead and pinned stories, as an editor chooses them (issue 38): an ordered list
// of up to 1 + HOME_COUNTS.secondary articles, the first the lead. The home page falls back to
// the newest articles for any slot without a published choice (server/content/home-curation.ts).

/** How many stories an editor can choose: the lead and the pinned (secondary) slots. */
export const HOME_PICKS = 1 + HOME_COUNTS.secondary;

export interface HomeCuration {
  version: number;
  /** The last change (ISO time) and who made it; null before the first. */
  updatedAt: string | null;
  updatedBy: string | null;
  /** In order: the lead first, then the pinned stories. */
  stories: CuratedArticle[];
}

export type CurationResult =
  | { ok: true; curation: HomeCuration }
  | { ok: false; reason: "invalid"; message: string }
  | { ok: false; reason: "conflict"; current: HomeCuration; by: string; at: string };

export async function homeCuration(db: Database): Promise<HomeCuration> {
  const [row, picks] = await Promise.all([
    db.selectFrom("home_curation").select(["version", "updated_at", "updated_by_name"]).where("id", "=", 1).executeTakeFirstOrThrow(),
    db.selectFrom("home_pick").select("article_id").orderBy("position").execute(),
  ]);
  return {
    version: row.version,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
    stories: await articlesInOrder(
      db,
      picks.map((p) => p.article_id),
    ),
  };
}

const conflict = (current: HomeCuration): CurationResult => ({
  ok: false,
  reason: "conflict",
  current,
  by: current.updatedBy ?? "someone else",
  at: current.updatedAt ?? "",
});

const audited = (c: HomeCuration) => ({ version: c.version, stories: c.stories.map((s) => s.slug) });

/**
 * Makes these articles (ids, the lead first) the home page's chosen stories, if the choice is
 * still at `expectedVersion`; a stale change writes nothing and answers with the choice as it is.
 * An empty list gives the home page back to the newest articles.
 */
export async function chooseHomeStories(
  db: Database,
  actor: AuditActor,
  expectedVersion: number,
  articleIds: readonly number[],
  now: Date,
): Promise<CurationResult> {
  if (articleIds.length > HOME_PICKS)
    return { ok: false, reason: "invalid", message: `The home page takes ${HOME_PICKS} chosen stories at most: remove one first.` };
  return inTransaction(db, async (tx) => {
    const before = await homeCuration(tx);
    if (before.version !== expectedVersion) throw new Outcome(conflict(before));
    const found = await articlesInOrder(tx, articleIds);
    const problem = choiceProblem(found, articleIds, new Set(before.stories.map((s) => s.id)));
    if (problem) throw new Outcome<CurationResult>({ ok: false, reason: "invalid", message: problem });
    const updated = await tx
      .updateTable("home_curation")
      .set((eb) => ({ version: eb("version", "+", 1), updated_at: now.toISOString(), updated_by_name: actor.label }))
      .where("id", "=", 1)
      .where("version", "=", expectedVersion)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new Outcome(conflict(await homeCuration(tx)));
    await tx.deleteFrom("home_pick").execute();
    if (articleIds.length > 0)
      await tx
        .insertInto("home_pick")
        .values(articleIds.map((article_id, position) => ({ position, article_id })))
        .execute();
    const after = await homeCuration(tx);
    await recordAudit(tx, { actor, action: "home.curate", subject: "home-page", before: audited(before), after: audited(after) }, now);
    return { result: { ok: true, curation: after }, generation: await bumpContentGeneration(tx, now) };
  });
}
