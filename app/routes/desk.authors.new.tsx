import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { createAuthor } from "~/server/desk/catalogue/authors";
import { authorFieldsSchema } from "~/shared/catalogue-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new author (ADR 078). Their slug is made from the name unless given, and is fixed once made.

const loadSchema: SchemaLoader<typeof authorFieldsSchema> = () => import("~/shared/catalogue-fields").then((m) => m.authorFieldsSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "authors.edit");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.edit");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: authorFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createAuthor(await requestContext({ request, context }).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/authors/${made.value.id}?saved=created`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "Add an author");

export default function DeskNewAuthor() {
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("new-author", loadSchema, actionData?.result);
  return (
    <DeskPage title="Add an author">
      <p className={css.muted}>
        <Link to="/desk/authors">All authors</Link>
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <TextField meta={fields.name} label="Name" autoComplete="off" />
        <TextField
          meta={fields.slug}
          label="Slug (optional)"
          autoComplete="off"
          hint="Lowercase letters, digits and hyphens; left empty, it is made from the name. Articles, the content files and the Admin API name the author by it, so it cannot change once the author is added."
        />
        <TextField meta={fields.role} label="Role" autoComplete="off" hint="A short line, such as their job title." />
        <TextAreaField meta={fields.bio} label="Biography" rows={8} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Add the author
          </button>
        </div>
      </Form>
    </DeskPage>
  );
}
