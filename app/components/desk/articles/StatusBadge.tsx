import { ARTICLE_STATUS_NAMES, type ArticleStatus } from "~/shared/article-vocabulary";
import { StateBadge, type BadgeTone } from "../StateBadge";

const TONES: Record<ArticleStatus, BadgeTone> = { draft: "quiet", scheduled: "waiting", published: "done", unpublished: "stopped" };

/** An article's state, as a word. */
export function StatusBadge({ status }: { status: ArticleStatus }) {
  return <StateBadge tone={TONES[status]}>{ARTICLE_STATUS_NAMES[status]}</StateBadge>;
}
