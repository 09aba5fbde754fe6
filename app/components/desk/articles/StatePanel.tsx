import { Form, Link } from "@remix-run/react";
import type { DeskArticle } from "~/server/desk/articles";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import { StatusBadge } from "./StatusBadge";
import * as css from "./articles.css";

interface Props {
  article: Pick<DeskArticle, "id" | "status" | "version" | "path" | "url" | "publishedAt">;
  lastChange: { by: string; at: string } | null;
  /** When a scheduled article goes out, as the desk writes times. */
  publishAt: string | null;
  mayPublish: boolean;
  /** The earliest a schedule may name (YYYY-MM-DDTHH:MM, UTC). */
  now: string;
  stateError?: string;
  schedule?: { error: string; value: string };
}

/** The article's state and the forms that move it: publish now, schedule (UTC), unpublish. */
export function StatePanel({ article, lastChange, publishAt, mayPublish, now, stateError, schedule }: Props) {
  const { status } = article;
  return (
    <aside className={css.side} aria-label="State and publishing">
      <section className={css.panel} aria-labelledby="state-heading">
        <h2 id="state-heading">State</h2>
        <p>
          <StatusBadge status={status} />
        </p>
        <dl className={css.facts}>
          {publishAt ? (
            <>
              <dt>Goes out</dt>
              <dd>{publishAt}</dd>
            </>
          ) : null}
          <dt>Dated</dt>
          <dd>{article.publishedAt}</dd>
          <dt>{article.url ? "On the site" : "Address"}</dt>
          <dd>{article.url ? <a href={article.url}>{article.url}</a> : <span title="Once published">{article.path}</span>}</dd>
          <dt>Version</dt>
          <dd>{article.version}</dd>
          <dt>Last change</dt>
          <dd>{lastChange ? `${lastChange.by}, ${lastChange.at}` : "None at the desk: as seeded"}</dd>
        </dl>
        <p>
          <Link to={`/desk/articles/${article.id}/revisions`}>Revisions and changes</Link>
        </p>
      </section>
      {mayPublish ? (
        <section className={css.panel} aria-labelledby="publishing-heading">
          <h2 id="publishing-heading">Publishing</h2>
          <p className={forms.hint}>These act on the last saved version: save your changes first.</p>
          {stateError ? (
            <p className={forms.formMessage} role="alert">
              {stateError}
            </p>
          ) : null}
          {status !== "published" ? (
            <Form method="post" className={css.stateForm}>
              <input type="hidden" name="intent" value="publish" />
              <button type="submit" className={`${primaryButton} ${css.wide}`}>
                Publish now
              </button>
            </Form>
          ) : null}
          {status !== "published" ? (
            <Form method="post" className={css.stateForm} noValidate>
              <input type="hidden" name="intent" value="schedule" />
              <div className={schedule ? `${forms.field} ${forms.withError}` : forms.field}>
                <label className={forms.label} htmlFor="publish-at">
                  {status === "scheduled" ? "New time (UTC)" : "Publish at (UTC)"}
                </label>
                <span id="publish-at-hint" className={forms.hint}>
                  A date and time in UTC, in the future.
                </span>
                {schedule ? (
                  <p id="publish-at-error" className={forms.fieldError}>
                    {schedule.error}
                  </p>
                ) : null}
                <input
                  id="publish-at"
                  name="publishAt"
                  type="datetime-local"
                  min={now}
                  defaultValue={schedule?.value}
                  className={forms.input}
                  aria-invalid={schedule ? true : undefined}
                  aria-describedby={schedule ? "publish-at-error publish-at-hint" : "publish-at-hint"}
                />
              </div>
              <button type="submit" className={`${forms.secondaryButton} ${css.wide}`}>
                {status === "scheduled" ? "Reschedule" : "Schedule"}
              </button>
            </Form>
          ) : null}
          {status === "published" || status === "scheduled" ? (
            <Form method="post" className={css.stateForm}>
              <input type="hidden" name="intent" value="unpublish" />
              <button type="submit" className={`${forms.secondaryButton} ${css.wide}`}>
                {status === "published" ? "Unpublish" : "Take off the schedule"}
              </button>
              <span className={forms.hint}>
                {status === "published" ? "Its address answers 410 Gone until it is published again." : "It goes back to being a draft."}
              </span>
            </Form>
          ) : null}
        </section>
      ) : null}
    </aside>
  );
}
