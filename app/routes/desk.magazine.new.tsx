import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { latestIssue } from "~/server/content/archive";
import { issueCode, nextIssueSlot } from "~/server/content/archive-calendar";
import { createIssue } from "~/server/desk/magazine";
import { issueFieldsSchema } from "~/shared/issue-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { IssueFields } from "~/app/components/desk/magazine/IssueFields";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new magazine issue: its code, date, cover story and summary; its contents and cover are
// added on its own page, where it goes next. Readers see it in the archive as soon as it is made.

const loadSchema: SchemaLoader<typeof issueFieldsSchema> = () => import("~/shared/issue-fields").then((m) => m.issueFieldsSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "issues.edit");
  const latest = await latestIssue(await requestContext({ request, context }).db());
  // The form starts at the calendar's slot after the newest issue.
  return { next: latest ? nextIssueSlot(latest.year, latest.month) : { year: new Date().getUTCFullYear(), month: 1 } };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.edit");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: issueFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { code, ...fields } = submission.value;
  const db = await requestContext({ request, context }).db();
  const change = { ...fields, code: code ?? issueCode(fields.year, fields.month), features: [] };
  const made = await createIssue(db, deskEditor(staff), change, new Date());
  if (made.ok) return redirect(`/desk/magazine/${made.issue.id}?saved=created`, 303);
  if (made.reason === "invalid") return rejectForm(submission, { fieldErrors: made.fieldErrors });
  throw new Error(`a new issue answered ${made.reason}`);
}

export const meta: MetaFunction = (args) => deskMeta(args, "New issue");

export default function DeskNewIssue() {
  const { next } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("new-issue", loadSchema, actionData?.result, {
    year: String(next.year),
    month: String(next.month),
  });
  return (
    <DeskPage title="New issue">
      <p className={css.muted}>
        <Link to="/desk/magazine">All issues</Link> · Readers see the issue in the archive as soon as it is made; add its contents and cover
        on the next page.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <IssueFields
          fields={fields}
          codeHint="Its page's address: /archive-toc/ then this. Left empty, it is made from the year and month (BR2601 for January 2026)."
        />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Add the issue
          </button>
        </div>
      </Form>
    </DeskPage>
  );
}
