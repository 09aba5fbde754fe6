import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { createReadingList } from "~/server/desk/curation";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { ReadingListFields } from "~/app/components/desk/curation/ReadingListFields";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { auditActor, requireDesk } from "~/app/lib/desk/access.server";
import { readingListFormSchema } from "~/app/lib/desk/curation-forms";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new reading list: its title, slug and description first; its articles are added on its own
// page, where it goes next.

const loadSchema: SchemaLoader<typeof readingListFormSchema> = () =>
  import("~/app/lib/desk/curation-forms").then((m) => m.readingListFormSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "reading-lists.edit");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "reading-lists.edit");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: readingListFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { name, slug, description } = submission.value;
  const db = await requestContext({ request, context }).db();
  const made = await createReadingList(db, auditActor(staff), { name, slug, description, articleIds: [] }, new Date());
  if (made.ok) return redirect(`/desk/reading-lists/${made.list.id}?saved=created`, 303);
  if (made.reason === "invalid") return rejectForm(submission, { fieldErrors: made.fieldErrors });
  throw new Error(`a new reading list answered ${made.reason}`);
}

export const meta: MetaFunction = (args) => deskMeta(args, "New reading list");

export default function DeskNewReadingList() {
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("new-reading-list", loadSchema, actionData?.result);
  return (
    <DeskPage title="New reading list">
      <p className={css.muted}>
        <Link to="/desk/reading-lists">All reading lists</Link> · Readers see the list as soon as it is made; add its articles on the next
        page.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <ReadingListFields fields={fields} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Create the list
          </button>
        </div>
      </Form>
    </DeskPage>
  );
}
