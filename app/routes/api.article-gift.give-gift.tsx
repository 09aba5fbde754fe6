import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect, withSecurityHeaders } from "../lib/responses.server";
import { z } from "zod";
import { articlePage } from "../../server/articles";
import { createGift } from "../../server/gifts";
import { config, db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { setGiftFlash } from "../lib/gift-flash.server";
import { NO_GIFTS_LEFT } from "../lib/gift-messages";
import { currentSubscriber } from "../lib/subscriber.server";

// POST /api/article-gift/give-gift (url): a subscriber makes a gift link for an article. A page
// form gets Post/Redirect/Get back to the article (the link rides in a flash cookie); a script
// (`_format=json` or Accept: application/json) gets { articleGiftURL, articleGiftsLeft }.

const input = z.object({ url: z.string().min(1).max(2048) });

export const action = withSecurityHeaders(async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const json = form.get("_format") === "json" || (request.headers.get("Accept") ?? "").includes("application/json");
  const refuse = (status: number, error: string) =>
    json ? Response.json({ error }, { status }) : new Response(error, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

  const user = await currentSubscriber(request);
  if (!user) return refuse(403, "Gifting articles is for subscribers.");
  const parsed = input.safeParse({ url: form.get("url") });
  const article = parsed.success ? await giftableArticle(parsed.data.url) : undefined;
  if (!article) return refuse(404, "That article could not be found.");

  const gift = await createGift(await db(), { userId: user.id, articleId: article.id, allowance: config().GIFTS_PER_MONTH });
  if (!gift.ok)
    return json ? Response.json({ error: NO_GIFTS_LEFT, articleGiftsLeft: 0 }, { status: 409 }) : redirect(`${article.url}#gift`, 303);
  const giftUrl = `${config().siteUrl}${article.url}?gift=${gift.token}`;
  if (json)
    return Response.json({ articleGiftURL: giftUrl, articleGiftsLeft: gift.giftsLeft }, { headers: { "Cache-Control": "no-store" } });
  return redirect(`${article.url}#gift`, { status: 303, headers: { "Set-Cookie": await setGiftFlash(article, user.id, giftUrl) } });
});

export const loader = withSecurityHeaders(function loader() {
  throw new Response(null, { status: 405, headers: { Allow: "POST" } });
});

/** The article at a path or an address on this site, e.g. /2025/06/some-slug. */
async function giftableArticle(value: string): Promise<{ id: number; url: string } | undefined> {
  const site = new URL(config().siteUrl);
  const url = URL.canParse(value, site) ? new URL(value, site) : undefined;
  const match = url?.origin === site.origin ? /^\/(\d{4})\/(\d{2})\/([a-z0-9-]{1,120})$/.exec(url.pathname) : null;
  if (!match) return undefined;
  const found = await articlePage(await db(), Number(match[1]), Number(match[2]), match[3]!);
  return found.kind === "found" ? found.page.article : undefined;
}
