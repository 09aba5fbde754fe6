import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { Database } from "~/server/db/connection";
import { diffRevision, getRevision, listRevisions, restoreRevision, type Revision } from "~/server/desk/articles";
import { mayAct } from "~/server/desk/roles";
import type { ArticleFields } from "~/shared/article-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { ConflictNotice } from "~/app/components/desk/articles/ConflictNotice";
import { DiffView } from "~/app/components/desk/articles/DiffView";
import { StatusBadge } from "~/app/components/desk/articles/StatusBadge";
import * as css from "~/app/components/desk/articles/articles.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { articleFromParam, conflictView, formVersion, STALE_FORM } from "~/app/lib/desk/articles.server";
import { setDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// One revision: what it changed from the revision before it, line by line, and restoring it (a
// save of its own, so it needs the version the editor read, as a save does).

const NOTHING: ArticleFields = {
  title: "",
  dek: "",
  subDek: "",
  summary: "",
  body: "",
  slug: "",
  authors: [],
  topics: [],
  contentType: "",
  tier: "article",
  series: null,
  seriesTitle: null,
  seriesPart: null,
  streams: [],
  published: "",
};

async function revisionFromParam(db: Database, articleId: number, param: string | undefined): Promise<Revision> {
  const revision = /^[0-9a-f-]{36}$/.test(param ?? "") ? await getRevision(db, articleId, param!) : undefined;
  return revision ?? notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.list");
  const db = await requestContext({ request, context }).db();
  const article = await articleFromParam(db, params.id);
  const revision = await revisionFromParam(db, article.id, params.revisionId);
  const older = (await listRevisions(db, article.id)).find((r) => r.version < revision.version);
  const previous = older ? await getRevision(db, article.id, older.id) : undefined;
  return {
    article: { id: article.id, title: article.title, version: article.version },
    revision: {
      id: revision.id,
      version: revision.version,
      status: revision.status,
      at: deskTime(revision.savedAt),
      by: revision.savedBy.name,
    },
    previous: previous ? { id: previous.id, version: previous.version } : null,
    diff: diffRevision(previous ?? { fields: NOTHING, status: revision.status }, revision),
    mayRestore: mayAct(staff.roles, "articles.edit") && revision.version !== article.version,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.list");
  const form = await readForm(request);
  const db = await requestContext({ request, context }).db();
  const article = await articleFromParam(db, params.id);
  const revision = await revisionFromParam(db, article.id, params.revisionId);
  if (form.get("intent") !== "restore") notFound();
  requireAction(staff, "articles.edit");
  const version = formVersion(form);
  if (version === null) return data({ problem: [STALE_FORM], conflict: null }, { status: 400 });
  const restored = await restoreRevision(db, auditActor(staff), article.id, revision.id, version, new Date());
  if (restored.ok) {
    const message = `Restored version ${revision.version}: the article is now at version ${restored.article.version}.`;
    const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message });
    return redirect(`/desk/articles/${article.id}`, { status: 303, headers: { "Set-Cookie": setCookie } });
  }
  if (restored.reason === "missing" || restored.reason === "no-revision") notFound();
  if (restored.reason === "invalid") return data({ problem: Object.values(restored.fieldErrors).flat(), conflict: null }, { status: 422 });
  return data({ problem: null, conflict: conflictView(restored.conflict, revision.fields) }, { status: 409 });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Version ${args.data.revision.version}: ${args.data.article.title}` : "Revision");

export default function ArticleRevision() {
  const { article, revision, previous, diff, mayRestore } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const conflict = actionData?.conflict ?? null;
  return (
    <DeskPage title={`Version ${revision.version}`}>
      <p className={css.crumbs}>
        <Link to="/desk/articles">Articles</Link> · <Link to={`/desk/articles/${article.id}`}>{article.title}</Link> ·{" "}
        <Link to={`/desk/articles/${article.id}/revisions`}>Revisions</Link>
      </p>
      <p className={css.legend}>
        <StatusBadge status={revision.status} />
        <span>
          {revision.at}, {revision.by}
        </span>
        <span>
          {previous ? (
            <>
              Compared with <Link to={`/desk/articles/${article.id}/revisions/${previous.id}`}>version {previous.version}</Link>
            </>
          ) : (
            "The first revision: everything in it is new."
          )}
        </span>
      </p>
      {conflict ? <ConflictNotice conflict={conflict} mine={`version ${revision.version}`} what="Nothing was restored." /> : null}
      {actionData?.problem ? (
        <div className={forms.summary} role="alert">
          <h2>There is a problem</h2>
          <ul>
            {actionData.problem.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {mayRestore ? (
        <Form method="post" className={forms.actions}>
          <input type="hidden" name="intent" value="restore" />
          <input
            key={conflict?.version ?? article.version}
            type="hidden"
            name="version"
            defaultValue={conflict?.version ?? article.version}
          />
          <button type="submit" className={primaryButton}>
            Restore this revision
          </button>
          <span className={forms.hint}>Its fields become the article&apos;s as a new version; the state stays as it is.</span>
        </Form>
      ) : revision.version === article.version ? (
        <p className={css.unchanged}>This is the article as it is now.</p>
      ) : null}
      <DiffView
        fields={diff}
        headingLevel={2}
        words={
          previous
            ? { added: `Added in version ${revision.version}`, removed: `Removed in version ${revision.version}` }
            : { added: "Added", removed: "Removed" }
        }
      />
    </DeskPage>
  );
}
