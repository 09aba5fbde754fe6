import type { SubscriberTools as Tools } from "~/app/lib/paywall/subscriber-tools.server";
import { ArticleNotes } from "./ArticleNotes";
import type { useSpecForm } from "./forms/useSpecForm";
import { GiftArticle } from "./GiftArticle";
import { SubscriberDownloads } from "./SubscriberDownloads";

/**
 * What a subscriber gets beside the full text: gifting, downloads and notes. Loaded as a chunk of
 * its own (the note form brings the form libraries), so other readers' pages do not carry it.
 */
export default function SubscriberTools({
  articleUrl,
  tools,
  notice,
  noteResult,
}: {
  articleUrl: string;
  tools: Tools;
  notice: string | null;
  noteResult: Parameters<typeof useSpecForm>[2];
}) {
  return (
    <>
      <GiftArticle articleUrl={articleUrl} giftsLeft={tools.gift.giftsLeft} giftUrl={tools.gift.giftUrl} />
      <SubscriberDownloads reprintPath={tools.reprintPath} chartPaths={tools.chartPaths} />
      <ArticleNotes
        articleUrl={articleUrl}
        notes={tools.notes}
        paragraphs={tools.paragraphs}
        limits={tools.limits}
        notice={notice}
        result={noteResult}
      />
    </>
  );
}
