import { ARTICLE_STATUS_NAMES, type ArticleStatus } from "~/shared/article-vocabulary";
import * as css from "./articles.css";

/** An article's state, as a word. */
export function StatusBadge({ status }: { status: ArticleStatus }) {
  return <span className={css.badge[status]}>{ARTICLE_STATUS_NAMES[status]}</span>;
}
