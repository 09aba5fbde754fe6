import type { FieldMetadata } from "@conform-to/react";
import { ARTICLE_STATUS_NAMES, type ArticleStatus } from "~/shared/article-vocabulary";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "./curation.css";

export interface ChosenArticle {
  id: number;
  title: string;
  path: string;
  status: ArticleStatus;
  published: string;
}

/**
 * An ordered list of articles in a form: each travels as a hidden `item` field, and moves up or
 * down or leaves by its own submit button ("up-2", "down-0", "remove-1"), so it works without JS.
 * `label` names an item's place ("Lead story"); the buttons' text says which article they move.
 */
export function ChosenArticles({ articles, label, empty }: { articles: ChosenArticle[]; label: (index: number) => string; empty: string }) {
  if (articles.length === 0) return <p className={css.empty}>{empty}</p>;
  return (
    <ol className={css.list}>
      {articles.map((article, index) => (
        <li key={article.id} className={css.item}>
          <input type="hidden" name="item" value={article.id} />
          <div className={css.what}>
            <span className={css.place}>{label(index)}</span>
            {article.status === "published" ? (
              <a href={article.path} className={css.title}>
                {article.title}
              </a>
            ) : (
              <span className={css.title}>{article.title}</span>
            )}
            <span className={css.meta}>
              {article.path} · {article.published}
              {article.status === "published" ? null : (
                <strong className={css.warning}> · {ARTICLE_STATUS_NAMES[article.status]}: readers do not see it</strong>
              )}
            </span>
          </div>
          <div className={css.buttons}>
            <button
              type="submit"
              name="intent"
              value={`up-${index}`}
              className={css.move}
              disabled={index === 0}
              aria-label={`Move ${article.title} up`}
            >
              Up
            </button>
            <button
              type="submit"
              name="intent"
              value={`down-${index}`}
              className={css.move}
              disabled={index === articles.length - 1}
              aria-label={`Move ${article.title} down`}
            >
              Down
            </button>
            <button type="submit" name="intent" value={`remove-${index}`} className={css.remove} aria-label={`Remove ${article.title}`}>
              Remove
            </button>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** The field naming an article to add, with the recent articles' addresses as suggestions, and its button. */
export function AddArticle({
  meta,
  recent,
  label,
  button,
}: {
  meta: FieldMetadata<string | undefined>;
  recent: { title: string; path: string }[];
  label: string;
  button: string;
}) {
  const error = meta.errors?.[0];
  const listId = `${meta.id}-recent`;
  return (
    <div className={error ? `${forms.field} ${forms.withError}` : forms.field}>
      <label className={forms.label} htmlFor={meta.id}>
        {label}
      </label>
      <span id={meta.descriptionId} className={forms.hint}>
        Paste its address from the site (such as /2024/05/its-slug) or type its slug; recent articles are suggested.
      </span>
      {error ? (
        <p id={meta.errorId} className={forms.fieldError}>
          {error}
        </p>
      ) : null}
      <div className={css.addRow}>
        <input
          id={meta.id}
          name={meta.name}
          defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : ""}
          list={listId}
          className={forms.input}
          autoComplete="off"
          maxLength={500}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${meta.errorId} ${meta.descriptionId}` : meta.descriptionId}
        />
        <button type="submit" name="intent" value="add" className={forms.secondaryButton}>
          {button}
        </button>
      </div>
      <datalist id={listId}>
        {recent.map((article) => (
          <option key={article.path} value={article.path}>
            {article.title}
          </option>
        ))}
      </datalist>
    </div>
  );
}
