import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { audienceNow, ISSUE_QUEUED_ALREADY, ISSUE_SENT, queueIssue, type IssueResult } from "~/server/newsletters/issues";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { IssueText } from "~/app/components/desk/newsletters/IssueText";
import * as newsletters from "~/app/components/desk/newsletters/newsletters.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireDesk } from "~/app/lib/desk/access.server";
import { SCHEDULE_MESSAGE } from "~/app/lib/desk/article-form";
import { formVersion, STALE_FORM } from "~/app/lib/desk/articles.server";
import { setDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { sendAtSchema } from "~/app/lib/desk/newsletter-forms";
import { issuePath } from "~/app/lib/desk/newsletters";
import { issueConflictMessage, issueFromParam } from "~/app/lib/desk/newsletters.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// Sending an issue (ADR 084): the second step, a page of its own, so that a single click never
// mails every follower. It says how many readers the issue goes to now and what it says, and
// sends it now or schedules it, for the version the page showed. The scheduled jobs do the
// sending; the issue's page shows their progress.

const readers = (n: number) => (n === 1 ? "1 reader" : `${n.toLocaleString("en-US")} readers`);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "newsletters.send");
  const db = await requestContext({ request, context }).db();
  const issue = await issueFromParam(db, params.issueId);
  const now = new Date();
  // Only a draft is sent: for any other the page says why, and links to its progress.
  const refusal = issue.status === "draft" ? null : issue.status === "queued" ? ISSUE_QUEUED_ALREADY : ISSUE_SENT;
  const audience = refusal ? null : await audienceNow(db, issue.newsletter, now);
  return {
    refusal,
    issue: {
      id: issue.id,
      version: issue.version,
      newsletter: issue.newsletter.name,
      subscriberOnly: issue.newsletter.subscriberOnly,
      subject: issue.subject,
      preheader: issue.preheader,
      intro: issue.intro,
      articles: issue.articles.map((a) => a.title),
    },
    audience,
    now: now.toISOString().slice(0, 16),
  };
}

type SendAnswer = { failed: true; message: string; sendAt?: string; scheduleError?: string };

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.send");
  const form = await readForm(request);
  const db = await requestContext({ request, context }).db();
  const issue = await issueFromParam(db, params.issueId);
  const now = new Date();
  const intent = form.get("intent");
  if (intent !== "send" && intent !== "schedule") notFound();
  const version = formVersion(form);
  if (version === null) return data<SendAnswer>({ failed: true, message: STALE_FORM }, { status: 400 });
  let at: Date | null = null;
  if (intent === "schedule") {
    const parsed = sendAtSchema.safeParse(Object.fromEntries(form));
    const sendAt = String(form.get("sendAt") ?? "").slice(0, 40);
    if (!parsed.success || parsed.data.sendAt.getTime() <= now.getTime())
      return data<SendAnswer>({ failed: true, message: SCHEDULE_MESSAGE, scheduleError: SCHEDULE_MESSAGE, sendAt }, { status: 400 });
    at = parsed.data.sendAt;
  }
  const result: IssueResult = await queueIssue(db, auditActor(staff), issue.id, version, at, now);
  if (result.ok) {
    const message = at
      ? `Scheduled for ${deskTime(at.toISOString())}: the jobs send it then.`
      : "Queued: the jobs start sending it within seconds. This page shows how far they are.";
    const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message });
    return redirect(issuePath(issue.id), { status: 303, headers: { "Set-Cookie": setCookie } });
  }
  if (result.reason === "missing") notFound();
  if (result.reason === "conflict")
    return data<SendAnswer>(
      {
        failed: true,
        message: `${issueConflictMessage(result.by, result.at)} Nothing was sent: check the issue as it is now, below, and send it again.`,
      },
      { status: 409 },
    );
  if (result.reason === "state") return data<SendAnswer>({ failed: true, message: result.message }, { status: 409 });
  throw new Error(`queueing an issue answered ${result.reason}`);
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, "Send a newsletter issue");

export default function DeskSendIssue() {
  const { refusal, issue, audience, now } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const here = issuePath(issue.id);
  const scheduleError = answer?.scheduleError;
  return (
    <DeskPage title="Send this issue?">
      <p className={css.muted}>
        <Link to="/desk/newsletters">All newsletters</Link> · <Link to={here}>Back to the issue</Link> ·{" "}
        <Link to={`${here}/preview`}>Preview the mail</Link>
      </p>
      {answer || refusal ? (
        <p className={forms.formMessage} role="alert">
          {answer?.message ?? refusal}
        </p>
      ) : null}
      {audience ? <SendForms issue={issue} audience={audience} now={now} scheduleError={scheduleError} sendAt={answer?.sendAt} /> : null}
    </DeskPage>
  );
}

function SendForms({
  issue,
  audience,
  now,
  scheduleError,
  sendAt,
}: {
  issue: {
    id: number;
    version: number;
    newsletter: string;
    subscriberOnly: boolean;
    subject: string;
    preheader: string;
    intro: string;
    articles: string[];
  };
  audience: { followers: number; recipients: number };
  now: string;
  scheduleError: string | undefined;
  sendAt: string | undefined;
}) {
  const here = issuePath(issue.id);
  return (
    <>
      <p>
        {issue.subscriberOnly ? (
          <>
            {readers(audience.followers)} follow {issue.newsletter}, a newsletter for subscribers only:{" "}
            <strong>it goes to {readers(audience.recipients)}</strong>, those who subscribe now. Whether each still does is checked again as
            their copy is sent.
          </>
        ) : (
          <>
            <strong>It goes to {readers(audience.recipients)}</strong>, everyone who follows {issue.newsletter} when it is sent.
          </>
        )}{" "}
        Once sent, an issue cannot be changed or sent again.
      </p>
      <IssueText issue={issue} heading="What it says" headingId="send-text-heading" />
      <div className={newsletters.sendOptions}>
        <Form method="post" className={forms.actions}>
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="version" value={issue.version} />
          <button type="submit" className={primaryButton}>
            Send now to {readers(audience.recipients)}
          </button>
        </Form>
        <Form method="post" noValidate className={forms.form}>
          <input type="hidden" name="intent" value="schedule" />
          <input type="hidden" name="version" value={issue.version} />
          <div className={scheduleError ? `${forms.field} ${forms.withError}` : forms.field}>
            <label className={forms.label} htmlFor="send-at">
              Or send at (UTC)
            </label>
            <span id="send-at-hint" className={forms.hint}>
              A date and time in UTC, in the future; it can be taken off the schedule until then.
            </span>
            {scheduleError ? (
              <p id="send-at-error" className={forms.fieldError}>
                {scheduleError}
              </p>
            ) : null}
            <input
              id="send-at"
              name="sendAt"
              type="datetime-local"
              min={now}
              defaultValue={sendAt}
              className={forms.input}
              aria-invalid={scheduleError ? true : undefined}
              aria-describedby={scheduleError ? "send-at-error send-at-hint" : "send-at-hint"}
            />
          </div>
          <div className={forms.actions}>
            <button type="submit" className={forms.secondaryButton}>
              Schedule
            </button>
          </div>
        </Form>
        <p>
          <Link to={here}>Cancel: back to the issue</Link>
        </p>
      </div>
    </>
  );
}
