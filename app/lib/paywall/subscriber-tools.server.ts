import type { User } from "~/server/accounts/users";
import { annotationsForArticle, MAX_NOTE_LENGTH, MAX_QUOTE_LENGTH } from "~/server/library/annotations";
import type { ArticlePage } from "~/server/content/articles";
import { blockText, type Block } from "~/server/content/markdown";
import type { Database } from "~/server/db/connection";
import { giftsLeft } from "~/server/share/gifts";
import { config } from "~/app/lib/context/db.server";
import { chartPath, reprintPath } from "~/app/lib/store/downloads";
import { takeGiftFlash } from "./gift-flash.server";

const LABEL_WORDS = 8;

/**
 * What an article page adds for a subscriber reading it in full: gifting, downloads and their
 * notes. Also the Set-Cookie that clears a gift link handed over by the gift form.
 */
export async function subscriberTools(request: Request, db: Database, user: User, article: ArticlePage) {
  const [left, notes, flash] = await Promise.all([
    giftsLeft(db, user.id, config().GIFTS_PER_MONTH),
    annotationsForArticle(db, user.id, article.id),
    takeGiftFlash(request, article, user.id),
  ]);
  return {
    setCookie: flash.setCookie,
    tools: {
      gift: { giftsLeft: left, giftUrl: flash.giftUrl },
      reprintPath: reprintPath(article.id),
      chartPaths:
        article.tier === "visual-library" ? { svg: chartPath(user.id, article.slug), png: chartPath(user.id, article.slug, "png") } : null,
      notes: notes.map(({ id, paragraph, quote, note }) => ({ id, paragraph, quote, note })),
      paragraphs: paragraphChoices(article.blocks),
      limits: { quote: MAX_QUOTE_LENGTH, note: MAX_NOTE_LENGTH },
    },
  };
}

export type SubscriberTools = Awaited<ReturnType<typeof subscriberTools>>["tools"];

/** The body's blocks as the note form offers them: numbered from 1, labelled with their first words. */
function paragraphChoices(blocks: Block[]): { value: number; label: string }[] {
  return blocks.map((block, i) => {
    const words = blockText(block).split(/\s+/).filter(Boolean);
    const start = words.slice(0, LABEL_WORDS).join(" ");
    return { value: i, label: `${i + 1}. ${words.length > LABEL_WORDS ? `${start}…` : start}` };
  });
}
