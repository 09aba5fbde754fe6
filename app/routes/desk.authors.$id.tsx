import { authorPhotoPath } from "~/app/lib/desk/picture-paths";
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getAuthor, updateAuthor, type DeskAuthor } from "~/server/desk/catalogue/authors";
import { mayAct } from "~/server/desk/roles";
import { authorEditSchema } from "~/shared/catalogue-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, staleMessage } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One author (ADR 078): their name, role and biography. The form carries the version it was
// opened at; a save over a newer one is refused with who saved it and when, the saved version
// beside the form, and the form's own changes kept in it.

const loadSchema: SchemaLoader<typeof authorEditSchema> = () => import("~/shared/catalogue-fields").then((m) => m.authorEditSchema);

const SAVED = { created: "Author added.", saved: "Saved.", unchanged: "Nothing had changed, so nothing was saved." } as const;

const authorId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.list");
  const id = authorId(params.id);
  const author = id === null ? undefined : await getAuthor(await requestContext({ request, context }).db(), id);
  if (!author) notFound();
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    author: { ...author, updatedAt: author.updatedAt && deskTime(author.updatedAt) },
    mayEdit: mayAct(staff.roles, "authors.edit"),
    saved: saved && Object.hasOwn(SAVED, saved) ? SAVED[saved as keyof typeof SAVED] : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.list");
  requireAction(staff, "authors.edit");
  const form = await readForm(request);
  const id = authorId(params.id);
  if (id === null) notFound();
  const submission = parseWithZod(form, { schema: authorEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await updateAuthor(await requestContext({ request, context }).db(), deskEditor(staff), id, submission.value, new Date());
  if (result.ok) return redirect(`/desk/authors/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleMessage(result.current, "author")] }, 409, { saved: savedVersion(result.current) });
}

const savedVersion = (author: DeskAuthor) => ({
  version: author.version,
  facts: [
    ["Name", author.name],
    ["Role", author.role],
    ["Biography", author.bio],
  ] as [string, string][],
});

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Author: ${args.data.author.name}` : "Author");

export default function DeskAuthor() {
  const { author, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as ReturnType<typeof savedVersion>) : null;
  const { form, fields, summary, submitDisabled } = useSpecForm("edit-author", loadSchema, actionData?.result, {
    name: author.name,
    role: author.role,
    bio: author.bio,
  });
  const formError = form.errors?.[0];
  return (
    <DeskPage title={author.name}>
      <p className={css.muted}>
        <Link to="/desk/authors">All authors</Link> · slug <span className={css.code}>{author.slug}</span> (fixed) ·{" "}
        <Link to={authorPhotoPath(author.slug)}>Photo</Link>
      </p>
      {saved ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      <div className={css.editor}>
        {mayEdit ? (
          <section aria-labelledby="edit-heading">
            <h2 id="edit-heading" className="visually-hidden">
              Edit the author
            </h2>
            <ErrorSummary items={summary} />
            <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
              {/* After a refused save, the version now saved: saving again replaces it, knowingly. */}
              <input type="hidden" name="version" value={stale?.version ?? author.version} />
              {formError ? (
                <p className={forms.formMessage} id={form.errorId}>
                  {formError}
                </p>
              ) : null}
              <TextField meta={fields.name} label="Name" autoComplete="off" />
              <TextField meta={fields.role} label="Role" autoComplete="off" hint="A short line, such as their job title." />
              <TextAreaField meta={fields.bio} label="Biography" rows={8} />
              <div className={forms.actions}>
                <button type="submit" className={primaryButton} disabled={submitDisabled}>
                  Save the author
                </button>
              </div>
            </Form>
          </section>
        ) : null}
        {stale ? (
          <RowFacts title={`Saved since you opened it (version ${stale.version})`} facts={stale.facts} />
        ) : (
          <RowFacts
            title="About this author"
            facts={[
              ["Version", String(author.version)],
              ["Last saved", author.updatedAt ? `${author.updatedAt} by ${author.updatedBy}` : "As the content files made it"],
            ]}
          />
        )}
      </div>
    </DeskPage>
  );
}
