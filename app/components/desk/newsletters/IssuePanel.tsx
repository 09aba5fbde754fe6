import { Form, Link } from "@remix-run/react";
import type { NewsletterIssueStatus } from "~/server/db/schema";
import { primaryButton } from "~/app/components/controls.css";
import * as panels from "~/app/components/desk/articles/articles.css";
import * as forms from "~/app/components/forms/forms.css";
import { IssueBadge } from "./IssueBadge";
import * as css from "./newsletters.css";

interface Props {
  issue: {
    id: number;
    status: NewsletterIssueStatus;
    version: number;
    newsletter: { name: string; subscriberOnly: boolean };
    createdBy: string;
    createdAt: string;
    updatedBy: string;
    updatedAt: string;
    queuedBy: string | null;
    queuedAt: string | null;
  };
  progress: string;
  /** The jobs are at work on it: the page refreshes itself, and says so. */
  moving: boolean;
  may: { compose: boolean; send: boolean };
  /** Where a test goes: the staff member's own address. */
  testTo: string;
  stateError?: string;
}

/** An issue's state and progress, and what can be done with it: preview, a test to oneself, sending, taking it off the schedule. */
export function IssuePanel({ issue, progress, moving, may, testTo, stateError }: Props) {
  const here = `/desk/newsletters/issues/${issue.id}`;
  return (
    <aside className={panels.side} aria-label="State and sending">
      <section className={panels.panel} aria-labelledby="issue-state-heading">
        <h2 id="issue-state-heading">State</h2>
        <p>
          <IssueBadge status={issue.status} />
        </p>
        <p role="status">{progress}</p>
        {moving ? (
          <p>
            This page refreshes every few seconds. <a href={here}>Refresh now</a>
          </p>
        ) : null}
        <dl className={panels.facts}>
          <dt>Newsletter</dt>
          <dd>
            {issue.newsletter.name}
            {issue.newsletter.subscriberOnly ? " (subscribers only)" : ""}
          </dd>
          <dt>Started</dt>
          <dd>
            {issue.createdBy}, {issue.createdAt}
          </dd>
          <dt>Last change</dt>
          <dd>
            {issue.updatedBy}, {issue.updatedAt}
          </dd>
          {issue.queuedBy ? (
            <>
              <dt>Sent by</dt>
              <dd>
                {issue.queuedBy}, {issue.queuedAt}
              </dd>
            </>
          ) : null}
          <dt>Version</dt>
          <dd>{issue.version}</dd>
        </dl>
        <p>
          <Link to={`${here}/preview`}>Preview the mail</Link>
        </p>
      </section>
      {stateError ? (
        <p className={forms.formMessage} role="alert">
          {stateError}
        </p>
      ) : null}
      {issue.status === "draft" && (may.compose || may.send) ? (
        <section className={panels.panel} aria-labelledby="issue-send-heading">
          <h2 id="issue-send-heading">Sending</h2>
          <p className={forms.hint}>These act on the last saved version: save your changes first.</p>
          {may.compose ? (
            <Form method="post" className={panels.stateForm}>
              <input type="hidden" name="intent" value="test" />
              <button type="submit" className={`${forms.secondaryButton} ${panels.wide}`}>
                Send a test to me
              </button>
              <span className={`${forms.hint} ${css.breakable}`}>To {testTo} alone, marked [Test].</span>
            </Form>
          ) : null}
          {may.send ? (
            <div className={panels.stateForm}>
              <Link to={`${here}/send`} className={`${primaryButton} ${panels.wide}`}>
                Send to followers…
              </Link>
              <span className={forms.hint}>The next page shows how many readers get it, and asks to confirm, now or at a time.</span>
            </div>
          ) : null}
        </section>
      ) : null}
      {issue.status === "queued" && may.send ? (
        <section className={panels.panel} aria-labelledby="issue-schedule-heading">
          <h2 id="issue-schedule-heading">Schedule</h2>
          <Form method="post" className={panels.stateForm}>
            <input type="hidden" name="intent" value="unschedule" />
            <button type="submit" className={`${forms.secondaryButton} ${panels.wide}`}>
              Take off the schedule
            </button>
            <span className={forms.hint}>It goes back to being a draft, until the jobs have started sending it.</span>
          </Form>
        </section>
      ) : null}
    </aside>
  );
}
