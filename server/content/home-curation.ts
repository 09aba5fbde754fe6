import type { Database } from "~/server/db/connection";
import { cardQuery, cardsOf, type ArticleCard } from "./article-cards";

// The home page's lead and pinned stories as an editor chose them at the desk
// (server/desk/curation/home.ts). Readers only ever see chosen articles that are published: the
// cards come from the view `article`, so an unpublished choice is simply not there.

export interface ChosenStories {
  lead: ArticleCard | null;
  /** The pinned stories, in the editor's order. */
  pinned: ArticleCard[];
}

export async function chosenStories(db: Database): Promise<ChosenStories> {
  const picks = await db.selectFrom("home_pick").select(["position", "article_id"]).orderBy("position").execute();
  if (picks.length === 0) return { lead: null, pinned: [] };
  const cards = await cardsOf(
    cardQuery(db).where(
      "article.id",
      "in",
      picks.map((p) => p.article_id),
    ),
  );
  const byId = new Map(cards.map((card) => [card.id, card]));
  return {
    lead: picks[0]!.position === 0 ? (byId.get(picks[0]!.article_id) ?? null) : null,
    pinned: picks.filter((p) => p.position > 0).flatMap((p) => byId.get(p.article_id) ?? []),
  };
}

/**
 * The front page's stories: the chosen lead and pinned stories, each slot without a published
 * choice taking the newest article not already on the page; then the latest, without repeats.
 */
export function frontStories(
  newest: ArticleCard[],
  chosen: ChosenStories,
  counts: { secondary: number; latest: number },
): { lead: ArticleCard | null; secondary: ArticleCard[]; latest: ArticleCard[] } {
  const pinned = chosen.pinned.slice(0, counts.secondary);
  const placed = new Set([chosen.lead, ...pinned].flatMap((card) => (card ? [card.id] : [])));
  const rest = newest.filter((card) => !placed.has(card.id));
  const lead = chosen.lead ?? rest.shift() ?? null;
  const secondary = [...pinned, ...rest.splice(0, counts.secondary - pinned.length)];
  return { lead, secondary, latest: rest.slice(0, counts.latest) };
}
