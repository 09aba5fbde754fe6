import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { createIssue, listIssues, newslettersAtDesk } from "~/server/newsletters/issues";
import { mayAct } from "~/server/desk/roles";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { IssueBadge } from "~/app/components/desk/newsletters/IssueBadge";
import * as newsletters from "~/app/components/desk/newsletters/newsletters.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { setDeskFlash } from "~/app/lib/desk/flash.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { issuePath, issueProgress } from "~/app/lib/desk/newsletters";
import { readForm } from "~/app/lib/forms/guard.server";
import { redirect } from "~/app/lib/http/responses.server";

// The newsletters (ADR 084): each with how many readers follow it and what has been sent of it,
// a button that starts an issue of it, and every issue, newest first, with its progress.

const PAGE_SIZE = 20;

/** The page a `page` parameter names: a whole number from 1, else the first. */
function pageNumber(value: string | null): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const db = await requestContext({ request, context }).db();
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  const [list, issues] = await Promise.all([newslettersAtDesk(db), listIssues(db, page, PAGE_SIZE)]);
  const now = new Date();
  return {
    newsletters: list.map((n) => ({ ...n, lastSentAt: n.lastSentAt && deskTime(n.lastSentAt) })),
    issues: issues.items.map((issue) => ({
      id: issue.id,
      subject: issue.subject,
      newsletter: issue.newsletter.name,
      status: issue.status,
      progress: issueProgress(issue, now),
      by: issue.queuedBy ?? issue.updatedBy,
      changed: deskTime(issue.queuedAt ?? issue.updatedAt),
    })),
    page,
    pages: Math.max(1, Math.ceil(issues.total / PAGE_SIZE)),
    total: issues.total,
    mayCompose: mayAct(staff.roles, "newsletters.compose"),
  };
}

/** Starts an issue of a newsletter, filled in with its description and newest articles, and opens it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const form = await readForm(request);
  if (form.get("intent") !== "compose") notFound();
  requireAction(staff, "newsletters.compose");
  const slug = String(form.get("newsletter") ?? "");
  const db = await requestContext({ request, context }).db();
  const issue = await createIssue(db, auditActor(staff), slug, new Date());
  if (!issue) notFound();
  const setCookie = await setDeskFlash(staff.user.id, {
    kind: "notice",
    message: "A new draft, filled in with the newsletter's description and its newest articles.",
  });
  return redirect(issuePath(issue.id), { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction = (args) => deskMeta(args, "Newsletters");

export default function DeskNewsletters() {
  const { newsletters: list, issues, page, pages, total, mayCompose } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Newsletters">
      <p className={css.muted}>
        Readers subscribe on the site&rsquo;s newsletters page. An issue is composed here, then sent to the newsletter&rsquo;s followers by
        the scheduled jobs; a subscriber-only newsletter goes only to readers who subscribe when their copy is sent.
      </p>
      <table className={css.table}>
        <caption className="visually-hidden">Newsletters</caption>
        <thead>
          <tr>
            <th scope="col">Newsletter</th>
            <th scope="col">For</th>
            <th scope="col">Followers</th>
            <th scope="col">Issues sent</th>
            {mayCompose ? <th scope="col">New issue</th> : null}
          </tr>
        </thead>
        <tbody>
          {list.map((n) => (
            <tr key={n.slug}>
              <td data-label="Newsletter">
                <strong>{n.name}</strong> <span className={css.muted}>({n.frequency})</span>
              </td>
              <td data-label="For">{n.subscriberOnly ? "Subscribers only" : "Every reader"}</td>
              <td data-label="Followers">{n.followers.toLocaleString("en-US")}</td>
              <td data-label="Issues sent">
                {n.sentIssues}
                {n.lastSentAt ? <span className={css.muted}> (last {n.lastSentAt})</span> : null}
              </td>
              {mayCompose ? (
                <td data-label="New issue">
                  <Form method="post" className={newsletters.inlineForm}>
                    <input type="hidden" name="intent" value="compose" />
                    <input type="hidden" name="newsletter" value={n.slug} />
                    <button type="submit" className={forms.secondaryButton}>
                      Compose<span className="visually-hidden"> an issue of {n.name}</span>
                    </button>
                  </Form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Issues</h2>
      {issues.length === 0 ? (
        <p className={css.muted}>No issue yet: compose the first above.</p>
      ) : (
        <>
          <p className={css.muted}>
            {total === 1 ? "One issue" : `${total} issues`}, newest first{pages > 1 ? `; page ${page} of ${pages}` : ""}.
          </p>
          <table className={css.table}>
            <caption className="visually-hidden">Issues</caption>
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Newsletter</th>
                <th scope="col">State</th>
                <th scope="col">Progress</th>
                <th scope="col">Last step</th>
              </tr>
            </thead>
            <tbody>
              {issues.map((issue) => (
                <tr key={issue.id}>
                  <td data-label="Subject">
                    <Link to={`/desk/newsletters/issues/${issue.id}`}>{issue.subject}</Link>
                  </td>
                  <td data-label="Newsletter">{issue.newsletter}</td>
                  <td data-label="State">
                    <IssueBadge status={issue.status} />
                  </td>
                  <td data-label="Progress">{issue.progress}</td>
                  <td data-label="Last step">
                    {issue.changed} by {issue.by}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 ? (
            <p className={css.muted}>
              {page > 1 ? <Link to={`?page=${page - 1}`}>Newer issues</Link> : null}
              {page > 1 && page < pages ? " · " : null}
              {page < pages ? <Link to={`?page=${page + 1}`}>Older issues</Link> : null}
            </p>
          ) : null}
        </>
      )}
    </DeskPage>
  );
}
