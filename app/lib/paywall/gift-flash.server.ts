import { signedCookie } from "~/app/lib/http/cookies.server";

// The gift form's Post/Redirect/Get hands the new link to the article page in this cookie: only
// the link's hash is stored, so the page can show the link only now.

interface Stored {
  giftUrl: string;
  userId: string;
  articleId: number;
}

// Sent only to the one article's page (serialized with its path), for a minute; read once, then cleared.
const flashCookie = signedCookie("mr_gift", 60);

export function setGiftFlash(article: { id: number; url: string }, userId: string, giftUrl: string): Promise<string> {
  const stored: Stored = { giftUrl, userId, articleId: article.id };
  return flashCookie().serialize(stored, { path: article.url });
}

/** The new gift link for this reader and article, if one came with the request, and the Set-Cookie that clears it. */
export async function takeGiftFlash(
  request: Request,
  article: { id: number; url: string },
  userId: string,
): Promise<{ giftUrl: string | null; setCookie?: string }> {
  const stored: unknown = await flashCookie().parse(request.headers.get("Cookie"));
  if (!stored || typeof stored !== "object") return { giftUrl: null };
  const setCookie = await flashCookie().serialize("", { path: article.url, maxAge: 0 });
  const { giftUrl, userId: owner, articleId } = stored as Partial<Stored>;
  const mine = owner === userId && articleId === article.id && typeof giftUrl === "string";
  return { giftUrl: mine ? giftUrl : null, setCookie };
}
