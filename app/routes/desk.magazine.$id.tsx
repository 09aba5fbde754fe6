import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { applyMove, listMove, recentArticles } from "~/server/desk/curation";
import { getDeskIssue, resolveFeatures, saveIssue, type DeskIssue } from "~/server/desk/magazine";
import { mayAct } from "~/server/desk/roles";
import { ARTICLE_STATUS_NAMES, type ArticleStatus } from "~/shared/article-vocabulary";
import { ISSUE_COVER_SIZE } from "~/shared/art-sizes";
import { ISSUE_MAX_FEATURES, ISSUE_MESSAGES, issueEditSchema } from "~/shared/issue-fields";
import { issueArtKey, issueCoverPath } from "~/shared/urls";
import { primaryButton } from "~/app/components/controls.css";
import { ResponsiveImage } from "~/app/components/ResponsiveImage";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import * as curation from "~/app/components/desk/curation/curation.css";
import * as css from "~/app/components/desk/desk.css";
import { IssueFields } from "~/app/components/desk/magazine/IssueFields";
import * as magazine from "~/app/components/desk/magazine/magazine.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { changedSinceOpened } from "~/app/lib/desk/conflict";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { issueCoverPagePath } from "~/app/lib/desk/picture-paths";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One magazine issue (issue 38): its code, date, cover story and summary, and its contents in
// order. Every button saves the whole form (the fields, and the contents with the button's
// change) over the version the page was read at; an issue saved meanwhile by someone else is
// never overwritten: the editor's version stays in the form and the saved one is shown beside it.

const loadSchema: SchemaLoader<typeof issueEditSchema> = () => import("~/shared/issue-fields").then((m) => m.issueEditSchema);

const UNKNOWN_INTENT = "That button is not one this page has: open the page again.";
const SAVED = {
  created: "Issue added. Add its contents and cover below.",
  saved: "Saved. Readers see the change within seconds.",
  unchanged: "Nothing had changed, so nothing was saved.",
} as const;

/** The issue's id from the address; anything but a whole number is no issue (404). */
function issueId(value: string | undefined): number {
  return value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.list");
  const db = await requestContext({ request, context }).db();
  const [issue, recent] = await Promise.all([getDeskIssue(db, issueId(params.id)), recentArticles(db)]);
  if (!issue) notFound();
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    issue: { ...issue, updatedAt: issue.updatedAt && deskTime(issue.updatedAt) },
    recent: recent.map((a) => ({ title: a.title, path: a.path, status: a.status })),
    mayEdit: mayAct(staff.roles, "issues.edit"),
    saved: saved && Object.hasOwn(SAVED, saved) ? SAVED[saved as keyof typeof SAVED] : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.list");
  requireAction(staff, "issues.edit");
  const form = await readForm(request);
  const id = issueId(params.id);
  const submission = parseWithZod(form, { schema: issueEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { version, features, newTitle, newArticle, ...fields } = submission.value;
  const intent = String(form.get("intent") ?? "save");
  const move = listMove(intent);
  if (!move && intent !== "save" && intent !== "add") return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  const db = await requestContext({ request, context }).db();
  const found = await resolveFeatures(db, features);
  if (!found.ok)
    return rejectForm(submission, {
      fieldErrors: Object.fromEntries([...found.problems].map(([index, message]) => [`features[${index}].article`, [message]])),
    });
  let list = found.features;
  // Any button adds what the last row names, so that a feature typed in is never lost.
  if (newTitle || newArticle) {
    const added = await resolveFeatures(db, [{ title: newTitle, article: newArticle }]);
    if (!added.ok) return rejectForm(submission, { fieldErrors: { newArticle: [...added.problems.values()] } });
    list = [...list, ...added.features];
  } else if (intent === "add") return rejectForm(submission, { fieldErrors: { newTitle: [ISSUE_MESSAGES.featureTitle] } });
  if (list.length > ISSUE_MAX_FEATURES) return rejectForm(submission, { fieldErrors: { newTitle: [ISSUE_MESSAGES.features] } });
  if (move) list = applyMove(list, move);
  const result = await saveIssue(db, deskEditor(staff), id, version, { ...fields, features: list }, new Date());
  if (result.ok) return redirect(`/desk/magazine/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "missing") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fieldErrors });
  const message = `${changedSinceOpened("issue", result.by, result.at)} Nothing of yours was saved: your changes are still in the form, and the saved version is shown beside it. Save again to replace it with yours.`;
  return rejectForm(submission, { formErrors: [message] }, 409, { saved: savedVersion(result.current) });
}

/** The issue as someone saved it since the form was opened, for the editor to compare with theirs. */
const savedVersion = (issue: DeskIssue) => ({
  version: issue.version,
  facts: [
    ["Code", issue.code],
    ["Date", `${issue.monthLabel} ${issue.year}`],
    ["Cover story", issue.title],
    ["Summary", issue.summary],
  ] as [string, string][],
  features: issue.features.map((f) => ({ title: f.title, path: f.article?.path ?? null })),
});

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Issue ${args.data.issue.code}: ${args.data.issue.title}` : "Magazine issue");

type Shown = ReturnType<typeof useLoaderData<typeof loader>>;

export default function DeskIssue() {
  const { issue, recent, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as ReturnType<typeof savedVersion>) : null;
  return (
    <DeskPage title={`${issue.monthLabel} ${issue.year}: ${issue.title}`}>
      <p className={css.muted}>
        <Link to="/desk/magazine">All issues</Link> · <a href={issue.path}>{issue.path}</a> · version {issue.version}
        {issue.updatedAt ? ` · last changed by ${issue.updatedBy} at ${issue.updatedAt}` : " · as seeded"}
      </p>
      {saved && !actionData ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      <div className={magazine.layout}>
        {mayEdit ? (
          // A fresh form for each version the page loads; after a refused save it keeps the editor's.
          <IssueForm
            key={issue.version}
            issue={issue}
            recent={recent}
            result={actionData?.result}
            version={stale?.version ?? issue.version}
          />
        ) : (
          <IssueReadOnly issue={issue} />
        )}
        <div className={magazine.aside}>
          {stale ? (
            <RowFacts stale title={`Saved since you opened it (version ${stale.version})`} facts={stale.facts}>
              <h3>Contents</h3>
              <Contents features={stale.features} />
            </RowFacts>
          ) : null}
          <CoverFacts issue={issue} mayEdit={mayEdit} />
        </div>
      </div>
    </DeskPage>
  );
}

function CoverFacts({ issue, mayEdit }: { issue: Shown["issue"]; mayEdit: boolean }) {
  return (
    <RowFacts title="Cover" facts={[["Shown", issue.cover ? "The uploaded cover" : "The drawn cover"]]}>
      {issue.cover ? (
        <ResponsiveImage image={issue.cover} sizes="9rem" className={magazine.cover} />
      ) : (
        <img
          className={magazine.cover}
          src={issueCoverPath(issueArtKey(issue))}
          alt=""
          width={ISSUE_COVER_SIZE.width / 4}
          height={ISSUE_COVER_SIZE.height / 4}
        />
      )}
      {mayEdit ? (
        <p>
          <Link to={issueCoverPagePath(issue.id)}>{issue.cover ? "Change or remove the cover" : "Upload a cover"}</Link>
        </p>
      ) : null}
    </RowFacts>
  );
}

function Contents({ features }: { features: { title: string; path: string | null }[] }) {
  if (features.length === 0) return <p>No features.</p>;
  return (
    <ol className={magazine.contents}>
      {features.map((f, index) => (
        <li key={`${index}:${f.title}`}>
          {f.title}
          {f.path ? <span className={css.code}> ({f.path})</span> : null}
        </li>
      ))}
    </ol>
  );
}

function IssueReadOnly({ issue }: { issue: Shown["issue"] }) {
  return (
    <RowFacts
      title="The issue"
      facts={[
        ["Code", issue.code],
        ["Date", `${issue.monthLabel} ${issue.year}`],
        ["Summary", issue.summary],
        ["Contents", <Contents key="contents" features={issue.features.map((f) => ({ title: f.title, path: f.article?.path ?? null }))} />],
      ]}
    />
  );
}

type Recent = Shown["recent"];

function IssueForm({
  issue,
  recent,
  result,
  version,
}: {
  issue: Shown["issue"];
  recent: Recent;
  result: Parameters<typeof useSpecForm>[2];
  version: number;
}) {
  const { form, fields, summary } = useSpecForm("issue", loadSchema, result, {
    code: issue.code,
    year: String(issue.year),
    month: String(issue.month),
    title: issue.title,
    summary: issue.summary,
    features: issue.features.map((f) => ({ title: f.title, article: f.article?.path ?? "" })),
  });
  // What the desk knows of an article a row names, by its address: its title and whether readers see it.
  const known = new Map<string, { title: string; status: ArticleStatus }>([
    ...recent.map((a): [string, { title: string; status: ArticleStatus }] => [a.path, a]),
    ...issue.features.flatMap((f): [string, { title: string; status: ArticleStatus }][] =>
      f.article ? [[f.article.path, f.article]] : [],
    ),
  ]);
  const rows = fields.features.getFieldList();
  const listError = fields.features.errors?.[0];
  return (
    <section aria-labelledby="edit-heading" className={magazine.form}>
      <h2 id="edit-heading" className="visually-hidden">
        Edit the issue
      </h2>
      <ErrorSummary items={summary} />
      {form.errors?.[0] ? (
        <p className={forms.formMessage} id={form.errorId} role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className={magazine.form}>
        {/* Enter in any field saves (the first submit button in the form is the one Enter presses). */}
        <button type="submit" name="intent" value="save" className={curation.enterButton} tabIndex={-1} aria-hidden="true">
          Save
        </button>
        {/* After a refused save, the version now saved: saving again replaces it, knowingly. */}
        <input type="hidden" name="version" value={version} />
        <div className={forms.form}>
          <IssueFields
            fields={fields}
            codeHint="Its page's address: /archive-toc/ then this. A new code leaves the old address answering with a redirect."
          />
        </div>
        <section aria-labelledby="contents-heading" className={curation.section}>
          <h2 id="contents-heading" className={curation.sectionHeading}>
            Contents, in order
          </h2>
          <p className={css.muted}>
            Each feature is a title, and the article it is on the site if there is one (readers get a link while it is published). Each
            button saves the whole form.
          </p>
          {listError ? (
            <p className={forms.formMessage} id={fields.features.errorId}>
              {listError}
            </p>
          ) : null}
          {rows.length === 0 ? (
            <p className={curation.empty}>No features yet: add the first below.</p>
          ) : (
            <ol className={curation.list}>
              {rows.map((row, index) => {
                const feature = row.getFieldset();
                const ref = typeof feature.article.initialValue === "string" ? feature.article.initialValue : "";
                const article = known.get(ref);
                const name =
                  typeof feature.title.initialValue === "string" && feature.title.initialValue
                    ? feature.title.initialValue
                    : `feature ${index + 1}`;
                return (
                  <li key={row.key} className={curation.item}>
                    <div className={curation.what}>
                      <span className={curation.place}>Feature {index + 1}</span>
                      <div className={magazine.featureFields}>
                        <TextField meta={feature.title} label="Title" autoComplete="off" />
                        <ArticleField meta={feature.article} label="Article on the site (optional)" listId="issue-recent" />
                      </div>
                      {article ? (
                        <span className={curation.meta}>
                          Links “{article.title}”
                          {article.status === "published" ? null : (
                            <strong className={curation.warning}>
                              {" "}
                              · {ARTICLE_STATUS_NAMES[article.status]}: readers see the title without a link until it is published
                            </strong>
                          )}
                        </span>
                      ) : null}
                    </div>
                    <div className={curation.buttons}>
                      <button type="submit" name="intent" value={`up-${index}`} className={curation.move} disabled={index === 0}>
                        Up<span className="visually-hidden">: move {name} up</span>
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value={`down-${index}`}
                        className={curation.move}
                        disabled={index === rows.length - 1}
                      >
                        Down<span className="visually-hidden">: move {name} down</span>
                      </button>
                      <button type="submit" name="intent" value={`remove-${index}`} className={curation.remove}>
                        Remove<span className="visually-hidden"> {name}</span>
                      </button>
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
          <fieldset className={css.fieldset}>
            <legend>Add a feature at the end</legend>
            <div className={magazine.featureFields}>
              <TextField meta={fields.newTitle} label="Title" hint="Left empty, the article's title is used." autoComplete="off" />
              <ArticleField
                meta={fields.newArticle}
                label="Article on the site (optional)"
                hint="Its address (such as /2024/05/its-slug) or its slug; recent articles are suggested."
                listId="issue-recent"
              />
            </div>
            <div className={forms.actions}>
              <button type="submit" name="intent" value="add" className={forms.secondaryButton}>
                Add
              </button>
            </div>
          </fieldset>
          <datalist id="issue-recent">
            {recent.map((article) => (
              <option key={article.path} value={article.path}>
                {article.title}
              </option>
            ))}
          </datalist>
        </section>
        <div className={forms.actions}>
          <button type="submit" name="intent" value="save" className={primaryButton}>
            Save the issue
          </button>
        </div>
      </Form>
    </section>
  );
}

/** An article named by its address (recent ones suggested) or its slug. */
function ArticleField({
  meta,
  label,
  hint,
  listId,
}: {
  meta: FieldMetadata<string | null | undefined>;
  label: string;
  hint?: string;
  listId: string;
}) {
  const error = meta.errors?.[0];
  const describedBy = [error ? meta.errorId : null, hint ? meta.descriptionId : null].filter(Boolean).join(" ");
  return (
    <div className={error ? `${forms.field} ${forms.withError}` : forms.field}>
      <label className={forms.label} htmlFor={meta.id}>
        {label}
      </label>
      {hint ? (
        <span id={meta.descriptionId} className={forms.hint}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <p id={meta.errorId} className={forms.fieldError}>
          {error}
        </p>
      ) : null}
      <input
        id={meta.id}
        name={meta.name}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : ""}
        list={listId}
        className={forms.input}
        autoComplete="off"
        maxLength={500}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
    </div>
  );
}
