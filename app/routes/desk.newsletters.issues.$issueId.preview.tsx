import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { mayAct } from "~/server/desk/roles";
import { previewIssue } from "~/server/newsletters/send";
import { secrets } from "~/server/secrets";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as newsletters from "~/app/components/desk/newsletters/newsletters.css";
import * as forms from "~/app/components/forms/forms.css";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { issuePath } from "~/app/lib/desk/newsletters";
import { issueFromParam } from "~/app/lib/desk/newsletters.server";

// An issue's mail as a follower will get it (ADR 084): its envelope, its HTML in a sandboxed
// frame of its own document, and its plain text, written to the newsletter's longest follower. A test of it goes
// to the staff member alone, from the issue's page.

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "newsletters.list");
  const db = await requestContext({ request, context }).db();
  const issue = await issueFromParam(db, params.issueId);
  const viewer = { userId: staff.user.id, email: staff.user.email, firstName: staff.user.firstName };
  const c = config();
  const { mail, sample } = await previewIssue(db, issue, viewer, { siteUrl: c.siteUrl, secret: secrets().sessionSecret });
  return {
    issue: { id: issue.id, status: issue.status, newsletter: issue.newsletter.name },
    sample: sample ? { firstName: sample.firstName, email: sample.email } : null,
    mail: {
      from: c.MAIL_FROM,
      to: String(mail.to),
      subject: mail.subject,
      preheader: issue.preheader,
      listUnsubscribe: mail.headers?.["List-Unsubscribe"] ?? "",
      html: mail.html ?? "",
      text: mail.text,
    },
    mayTest: issue.status === "draft" && mayAct(staff.roles, "newsletters.compose"),
  };
}

/** Nothing is posted here (a test is sent from the issue's page); anyone without a role still gets the desk's 404. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireDesk({ request, context }, "newsletters.list");
  notFound();
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Preview: ${args.data.mail.subject}` : "Preview of a newsletter issue");

export default function DeskNewsletterPreview() {
  const { issue, sample, mail, mayTest } = useLoaderData<typeof loader>();
  const here = issuePath(issue.id);
  return (
    <DeskPage title={`Preview: ${mail.subject}`}>
      <p className={css.muted}>
        <Link to="/desk/newsletters">All newsletters</Link> · <Link to={here}>Back to the issue</Link>
      </p>
      <p>
        {sample
          ? `As ${sample.firstName} (${sample.email}), who has followed ${issue.newsletter} longest, will get it.`
          : `No one follows ${issue.newsletter} yet: this is the mail as you would get it.`}{" "}
        Articles no longer published are left out, as they will be when it is sent. Its unsubscribe link here is yours, not the
        reader&rsquo;s.
      </p>
      <section aria-labelledby="envelope-heading" className={css.facts}>
        <h2 id="envelope-heading">Envelope</h2>
        <dl>
          <dt>From</dt>
          <dd>{mail.from}</dd>
          <dt>To</dt>
          <dd>{mail.to}</dd>
          <dt>Subject</dt>
          <dd>{mail.subject}</dd>
          <dt>Preheader</dt>
          <dd>{mail.preheader || "(none)"}</dd>
          <dt>List-Unsubscribe</dt>
          <dd className={css.code}>{mail.listUnsubscribe}</dd>
        </dl>
      </section>
      {mayTest ? (
        <Form method="post" action={here} className={forms.actions}>
          <input type="hidden" name="intent" value="test" />
          <button type="submit" className={forms.secondaryButton}>
            Send a test to me
          </button>
        </Form>
      ) : null}
      <section aria-labelledby="html-heading">
        <h2 id="html-heading">As HTML</h2>
        {/* The mail's own document, in a sandbox: it runs nothing, and the page's policy still holds in it. */}
        <iframe srcDoc={mail.html} title={`The mail's HTML: ${mail.subject}`} className={newsletters.frame} sandbox="" />
      </section>
      <section aria-labelledby="text-heading">
        <h2 id="text-heading">As plain text</h2>
        <pre className={newsletters.text}>{mail.text}</pre>
      </section>
    </DeskPage>
  );
}
