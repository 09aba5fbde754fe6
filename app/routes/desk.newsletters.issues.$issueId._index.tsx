import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { mailer } from "~/server/adapters/mail";
import { applyMove, articlesInOrder, findArticle, listMove, recentArticles } from "~/server/desk/curation";
import { mayAct } from "~/server/desk/roles";
import { saveIssue, unscheduleIssue, type DeskIssue } from "~/server/newsletters/issues";
import { sendTestIssue } from "~/server/newsletters/send";
import { secrets } from "~/server/secrets";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as panels from "~/app/components/desk/articles/articles.css";
import * as css from "~/app/components/desk/desk.css";
import { IssueForm } from "~/app/components/desk/newsletters/IssueForm";
import { IssuePanel } from "~/app/components/desk/newsletters/IssuePanel";
import { IssueText } from "~/app/components/desk/newsletters/IssueText";
import * as newsletters from "~/app/components/desk/newsletters/newsletters.css";
import * as forms from "~/app/components/forms/forms.css";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { ADD_INVALID } from "~/app/lib/desk/curation-forms";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { issueFormSchema } from "~/app/lib/desk/newsletter-forms";
import { issuePath, issueProgress, progressMoving } from "~/app/lib/desk/newsletters";
import { issueConflictMessage, issueFromParam } from "~/app/lib/desk/newsletters.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";
import { log } from "~/server/log";

// One newsletter issue (ADR 084). A draft: its subject, preheader, introduction and articles,
// saved at the version the page was read at (a save from a stale page writes nothing and shows
// both versions), a test to oneself, and the way to the send page. Once queued: its schedule,
// which can be taken off until the jobs start it. Once sending or sent: its progress, which the
// page refreshes by itself (a meta refresh, and a plain link).

const UNKNOWN_INTENT = "That button is not one this page has: open the page again.";
/** Seconds between the page's own refreshes while the jobs send it. */
const REFRESH_SECONDS = 5;

const shown = (issue: DeskIssue) => ({
  ...issue,
  createdAt: deskTime(issue.createdAt),
  updatedAt: deskTime(issue.updatedAt),
  queuedAt: issue.queuedAt && deskTime(issue.queuedAt),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const db = await requestContext({ request, context }).db();
  const [issue, { flash, setCookie }] = await Promise.all([issueFromParam(db, params.issueId), takeDeskFlash(request, staff.user.id)]);
  const recent = issue.status === "draft" ? await recentArticles(db) : [];
  const now = new Date();
  return data(
    {
      issue: shown(issue),
      progress: issueProgress(issue, now),
      moving: progressMoving(issue, now),
      recent: recent.map((a) => ({ title: a.title, path: a.path })),
      may: { compose: mayAct(staff.roles, "newsletters.compose"), send: mayAct(staff.roles, "newsletters.send") },
      testTo: staff.user.email,
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

async function noticed(staffId: string, here: string, message: string) {
  const setCookie = await setDeskFlash(staffId, { kind: "notice", message });
  return redirect(here, { status: 303, headers: { "Set-Cookie": setCookie } });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const form = await readForm(request);
  const db = await requestContext({ request, context }).db();
  const issue = await issueFromParam(db, params.issueId);
  const here = issuePath(issue.id);
  const actor = auditActor(staff);
  const intent = String(form.get("intent") ?? "save");

  if (intent === "test") {
    requireAction(staff, "newsletters.compose");
    const to = { userId: staff.user.id, email: staff.user.email, firstName: staff.user.firstName };
    try {
      await sendTestIssue(db, mailer(), actor, issue, to, { siteUrl: config().siteUrl, secret: secrets().sessionSecret }, new Date());
    } catch (error) {
      log.warn("A newsletter issue's test could not be sent", { error });
      return data(
        { failed: true, stateError: `The test could not be sent: the mail server did not take it. Try again in a moment.` },
        { status: 502 },
      );
    }
    return noticed(staff.user.id, here, `A test went to ${staff.user.email}.`);
  }
  if (intent === "unschedule") {
    requireAction(staff, "newsletters.send");
    const result = await unscheduleIssue(db, actor, issue.id, new Date());
    if (result.ok) return noticed(staff.user.id, here, "Taken off the schedule: it is a draft again.");
    if (result.reason === "state") return data({ failed: true, stateError: result.message }, { status: 409 });
    notFound();
  }

  requireAction(staff, "newsletters.compose");
  const submission = parseWithZod(form, { schema: issueFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { subject, preheader, intro, version, item, add } = submission.value;
  if (version === undefined) return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  let ids = item;
  const move = listMove(intent);
  if (move) ids = applyMove(item, move);
  else if (intent !== "save" && intent !== "add") return rejectForm(submission, { formErrors: [UNKNOWN_INTENT] });
  // Save adds what the field names too, so that pressing Enter in it adds the article.
  if (!move && add) {
    const article = await findArticle(db, add);
    if (!article) return rejectForm(submission, { fieldErrors: { add: [`No article has the address or slug “${add}”.`] } });
    if (item.includes(article.id)) return rejectForm(submission, { fieldErrors: { add: [`“${article.title}” is already in the issue.`] } });
    ids = [...item, article.id];
  } else if (intent === "add") return rejectForm(submission, { fieldErrors: { add: [ADD_INVALID] } });

  const saved = await saveIssue(db, actor, issue.id, version, { subject, preheader, intro, articleIds: ids }, new Date());
  if (saved.ok) return noticed(staff.user.id, here, "Saved.");
  if (saved.reason === "missing") notFound();
  if (saved.reason === "state") return data({ failed: true, stateError: saved.message }, { status: 409 });
  if (saved.reason === "invalid") {
    const { articles, ...fieldErrors } = saved.fieldErrors;
    return rejectForm(submission, { fieldErrors: articles ? { ...fieldErrors, add: articles } : fieldErrors });
  }
  const yours = { subject, preheader, intro, articles: (await articlesInOrder(db, ids)).map((a) => a.title) };
  return data(
    {
      failed: true,
      conflict: {
        message: `${issueConflictMessage(saved.by, saved.at)} Your version was not saved: the form shows the issue as it is now, and yours is below it, to copy from.`,
        yours,
      },
    },
    { status: 409 },
  );
}

export const meta: MetaFunction<typeof loader> = (args) => [
  ...deskMeta(args, args.data ? `Newsletter issue: ${args.data.issue.subject}` : "Newsletter issue"),
  ...(args.data?.moving ? [{ httpEquiv: "refresh", content: String(REFRESH_SECONDS) }] : []),
];

export default function DeskNewsletterIssue() {
  const { issue, progress, moving, recent, may, testTo, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const conflict = actionData && "conflict" in actionData ? actionData.conflict : undefined;
  const stateError = actionData && "stateError" in actionData ? actionData.stateError : undefined;
  const text = { ...issue, articles: issue.articles.map((a) => a.title) };
  return (
    <DeskPage title={issue.subject}>
      <p className={css.muted}>
        <Link to="/desk/newsletters">All newsletters</Link> · An issue of {issue.newsletter.name}
      </p>
      {notice && !actionData ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      {conflict ? (
        <p className={forms.formMessage} role="alert">
          {conflict.message}
        </p>
      ) : null}
      <div className={panels.layout}>
        <IssuePanel issue={issue} progress={progress} moving={moving} may={may} testTo={testTo} stateError={stateError} />
        <div className={newsletters.column}>
          {issue.status === "draft" && may.compose ? (
            // A fresh form for each version: after a conflict it shows the issue as it is now.
            <IssueForm key={issue.version} issue={issue} recent={recent} result={conflict ? undefined : result} />
          ) : (
            <IssueText issue={text} heading="The issue" headingId="issue-text-heading" />
          )}
          {conflict ? <IssueText issue={conflict.yours} heading="Your version (not saved)" headingId="yours-heading" /> : null}
        </div>
      </div>
    </DeskPage>
  );
}
