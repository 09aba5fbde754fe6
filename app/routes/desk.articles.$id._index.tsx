import { articleImagePath } from "~/app/lib/desk/picture-paths";
import { previewPath } from "~/server/desk/articles/preview";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { lazy } from "react";
import { articleChoices } from "~/server/desk/article-choices";
import { publishArticle, unpublishArticle, type PublishResult } from "~/server/desk/articles";
import { mayAct } from "~/server/desk/roles";
import { AUTOSAVE_AFTER_CONFLICT, AUTOSAVE_OFF, AUTOSAVED_STATES } from "~/shared/article-vocabulary";
import { Deferred } from "~/app/components/Deferred";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { ArticleForm } from "~/app/components/desk/articles/ArticleForm";
import { StatePanel } from "~/app/components/desk/articles/StatePanel";
import * as css from "~/app/components/desk/articles/articles.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { errorSummary } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { articleFormValues, SCHEDULE_MESSAGE, scheduleSchema } from "~/app/lib/desk/article-form";
import { ARTICLE_FORM_BYTES, articleFromParam, conflictView, saveArticleForm } from "~/app/lib/desk/articles.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One article at the desk (issue 38): its fields, saved as a new revision if no one else saved
// since the editor opened it; and its state, moved by forms of their own (publish now, schedule,
// unpublish). Every form works without JS and ends in a redirect back here with a notice. With
// JS the form also autosaves, previews the body and offers authors and topics (ADR 085).

// A save that came too late is shown in full on the server; in the browser its code (the diff
// view) loads only when there is one, which leaves the page's scripts room within its budget (ADR 049).
const ConflictNotice = lazy(() => import("~/app/components/desk/articles/ConflictNotice").then((m) => ({ default: m.ConflictNotice })));

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.list");
  const db = await requestContext({ request, context }).db();
  const [article, choices, { flash, setCookie }] = await Promise.all([
    articleFromParam(db, params.id),
    articleChoices(db),
    takeDeskFlash(request, staff.user.id),
  ]);
  return data(
    {
      article,
      values: articleFormValues(article),
      choices,
      may: { edit: mayAct(staff.roles, "articles.edit"), publish: mayAct(staff.roles, "articles.publish") },
      notice: flash?.kind === "notice" ? flash.message : null,
      lastChange: article.updatedAt ? { by: article.updatedBy?.name ?? "unknown", at: deskTime(article.updatedAt) } : null,
      publishAt: article.publishAt && deskTime(article.publishAt),
      now: new Date().toISOString().slice(0, 16),
      autosave: { path: `/desk/articles/${article.id}/autosave`, off: AUTOSAVED_STATES.includes(article.status) ? null : AUTOSAVE_OFF },
      preview: {
        guest: previewPath(article.id),
        wall: previewPath(article.id, { view: "wall" }),
        subscriber: previewPath(article.id, { view: "subscriber" }),
      },
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

/** A state's move: a notice after the redirect, or the domain's refusal on this page. */
async function moved(staffId: string, here: string, result: PublishResult, notice: (r: Extract<PublishResult, { ok: true }>) => string) {
  if (result.ok) {
    const setCookie = await setDeskFlash(staffId, { kind: "notice", message: notice(result) });
    return redirect(here, { status: 303, headers: { "Set-Cookie": setCookie } });
  }
  if (result.reason === "missing") notFound();
  return data({ stateError: result.message }, { status: 409 });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "articles.list");
  const form = await readForm(request, { maxBytes: ARTICLE_FORM_BYTES });
  const db = await requestContext({ request, context }).db();
  const article = await articleFromParam(db, params.id);
  const here = `/desk/articles/${article.id}`;
  const actor = auditActor(staff);
  const now = new Date();
  switch (form.get("intent")) {
    case "save": {
      requireAction(staff, "articles.edit");
      // Every answer of a save names its conflict (none, mostly), so the page can tell them apart.
      const none = { conflict: null };
      const attempt = await saveArticleForm(db, actor, article, form, "save", now);
      const { submission } = attempt;
      if (attempt.saved === null) return rejectForm(submission, attempt.formError ? { formErrors: [attempt.formError] } : {}, 400, none);
      const { saved, fields } = attempt;
      if (saved.ok) {
        const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: "Saved." });
        return redirect(here, { status: 303, headers: { "Set-Cookie": setCookie } });
      }
      if (saved.reason === "missing") notFound();
      if (saved.reason === "invalid")
        return rejectForm(submission, { fieldErrors: saved.fieldErrors as Record<string, string[]> }, 422, none);
      if (saved.reason === "state") return rejectForm(submission, { formErrors: [saved.message] }, 409, none);
      const conflict = conflictView(saved.conflict, fields);
      return rejectForm(submission, { formErrors: [conflict.message] }, 409, { conflict });
    }
    case "publish":
      requireAction(staff, "articles.publish");
      return moved(staff.user.id, here, await publishArticle(db, actor, article.id, {}, now), () => "Published.");
    case "schedule": {
      requireAction(staff, "articles.publish");
      const parsed = scheduleSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success || parsed.data.publishAt.getTime() <= now.getTime())
        return data({ scheduleError: SCHEDULE_MESSAGE, publishAt: String(form.get("publishAt") ?? "").slice(0, 40) }, { status: 400 });
      const result = await publishArticle(db, actor, article.id, { at: parsed.data.publishAt }, now);
      return moved(staff.user.id, here, result, (r) => `Scheduled for ${deskTime(r.article.publishAt ?? "")}.`);
    }
    case "unpublish":
      requireAction(staff, "articles.publish");
      return moved(staff.user.id, here, await unpublishArticle(db, actor, article.id, now), (r) =>
        r.article.status === "draft" ? "Taken off the schedule: it is a draft again." : "Unpublished: its address now answers 410 Gone.",
      );
    default:
      notFound();
  }
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Edit: ${args.data.article.title}` : "Article");

export default function EditArticle() {
  const { article, values, choices, may, notice, lastChange, publishAt, now, preview, autosave } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const conflict = actionData && "conflict" in actionData ? actionData.conflict : null;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <DeskPage title={article.title}>
      <p className={css.crumbs}>
        <Link to="/desk/articles">Articles</Link> · Editing · <Link to={`/desk/articles/${article.id}/revisions`}>Revisions</Link> ·{" "}
        <Link to={articleImagePath(article.id)}>Hero image</Link>
      </p>
      <p className={css.crumbs}>
        Preview of the last save (a private link, good for 72 hours): <a href={preview.guest}>as a guest</a> ·{" "}
        <a href={preview.wall}>at the wall</a> · <a href={preview.subscriber}>as a subscriber</a>
      </p>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      {/* First on a phone too, before the state's panel: a conflict's notice says all there is to say. */}
      {conflict ? (
        <Deferred>
          <ConflictNotice conflict={conflict} />
        </Deferred>
      ) : (
        <ErrorSummary items={errorSummary("article", result)} formErrorId="article-error" />
      )}
      <div className={css.layout}>
        <StatePanel
          article={conflict ? { ...article, version: conflict.version, status: conflict.status } : article}
          lastChange={lastChange}
          publishAt={publishAt}
          mayPublish={may.publish}
          now={now}
          stateError={actionData && "stateError" in actionData ? actionData.stateError : undefined}
          schedule={
            actionData && "scheduleError" in actionData ? { error: actionData.scheduleError, value: actionData.publishAt } : undefined
          }
        />
        {may.edit ? (
          <ArticleForm
            key={`${article.version}:${conflict ? conflict.version : ""}`}
            intent="save"
            version={conflict?.version ?? article.version}
            values={values}
            result={result}
            choices={choices}
            summaryAbove
            submitLabel="Save"
            saveNote={article.status === "published" ? "A published article changes on the site as soon as it is saved." : undefined}
            autosave={conflict ? { ...autosave, off: AUTOSAVE_AFTER_CONFLICT } : autosave}
          />
        ) : (
          <p className={css.unchanged}>Your roles let you read this article, not change it.</p>
        )}
      </div>
    </DeskPage>
  );
}
