import type { User } from "~/server/accounts/users";
import { articlePage } from "~/server/content/articles";
import { createGift } from "~/server/share/gifts";
import { config, db } from "~/app/lib/context/db.server";

// The gift rule, shared by the article page's gift form (/article-gift) and the service API
// (POST /api/article-gift/give-gift): a subscriber turns one of the month's gifts into a link.

type GiftedArticle = { id: number; url: string };

export type GiveGiftOutcome =
  | { kind: "unknown-article" }
  | { kind: "none-left"; article: GiftedArticle }
  | { kind: "given"; article: GiftedArticle; giftUrl: string; giftsLeft: number };

/** Makes a gift link for the article at `url`; the caller has checked that `subscriber` subscribes. */
export async function giveGift(subscriber: User, url: string): Promise<GiveGiftOutcome> {
  const article = await giftableArticle(url);
  if (!article) return { kind: "unknown-article" };
  const gift = await createGift(await db(), { userId: subscriber.id, articleId: article.id, allowance: config().GIFTS_PER_MONTH });
  if (!gift.ok) return { kind: "none-left", article };
  return { kind: "given", article, giftUrl: `${config().siteUrl}${article.url}?gift=${gift.token}`, giftsLeft: gift.giftsLeft };
}

/** The article at a path or an address on this site, e.g. /2025/06/some-slug. */
async function giftableArticle(value: string): Promise<GiftedArticle | undefined> {
  const site = new URL(config().siteUrl);
  const url = URL.canParse(value, site) ? new URL(value, site) : undefined;
  const match = url?.origin === site.origin ? /^\/(\d{4})\/(\d{2})\/([a-z0-9-]{1,120})$/.exec(url.pathname) : null;
  if (!match) return undefined;
  const found = await articlePage(await db(), Number(match[1]), Number(match[2]), match[3]!);
  return found.kind === "found" ? { id: found.page.article.id, url: found.page.article.url } : undefined;
}
