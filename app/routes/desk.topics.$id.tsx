import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskTopic, listSubjects, updateTopic, type DeskTopic } from "~/server/desk/catalogue/topics";
import { mayAct } from "~/server/desk/roles";
import { topicEditSchema } from "~/shared/catalogue-fields";
import { topicPath } from "~/shared/urls";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { TopicFields } from "~/app/components/desk/TopicFields";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
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

// One topic or subject (ADR 078). A rename moves its page, and the old addresses lead to the new
// one; the form carries the version it was opened at, and a stale save is refused as an author's is.

const loadSchema: SchemaLoader<typeof topicEditSchema> = () => import("~/shared/catalogue-fields").then((m) => m.topicEditSchema);

const SAVED = { created: "Topic added.", saved: "Saved.", unchanged: "Nothing had changed, so nothing was saved." } as const;

const topicId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

const access = (t: Pick<DeskTopic, "subscriberOnly" | "executiveOnly">) =>
  t.executiveOnly ? "Executive subscribers only" : t.subscriberOnly ? "Subscribers only" : "Everyone";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "topics.list");
  const id = topicId(params.id);
  const database = await requestContext({ request, context }).db();
  const topic = id === null ? undefined : await getDeskTopic(database, id);
  if (!topic) notFound();
  const subjects = await listSubjects(database);
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    topic: { ...topic, updatedAt: topic.updatedAt && deskTime(topic.updatedAt), access: access(topic) },
    subjects: subjects.filter((s) => s.id !== topic.id).map((s) => s.name),
    mayEdit: mayAct(staff.roles, "topics.edit"),
    saved: saved && Object.hasOwn(SAVED, saved) ? SAVED[saved as keyof typeof SAVED] : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "topics.list");
  requireAction(staff, "topics.edit");
  const form = await readForm(request);
  const id = topicId(params.id);
  if (id === null) notFound();
  const submission = parseWithZod(form, { schema: topicEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await updateTopic(await requestContext({ request, context }).db(), deskEditor(staff), id, submission.value, new Date());
  if (result.ok) return redirect(`/desk/topics/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleMessage(result.current, "topic")] }, 409, { saved: savedVersion(result.current) });
}

const savedVersion = (topic: DeskTopic) => ({
  version: topic.version,
  facts: [
    ["Name", topic.name],
    ["Description", topic.description],
    ["Subject", topic.subject ?? "None: a subject"],
    ["Who may follow", access(topic)],
  ] as [string, string][],
});

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Topic: ${args.data.topic.name}` : "Topic");

export default function DeskTopic() {
  const { topic, subjects, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as ReturnType<typeof savedVersion>) : null;
  const { form, fields, summary, submitDisabled } = useSpecForm("edit-topic", loadSchema, actionData?.result, {
    name: topic.name,
    description: topic.description,
    subject: topic.subject ?? "",
  });
  const formError = form.errors?.[0];
  return (
    <DeskPage title={topic.name}>
      <p className={css.muted}>
        <Link to="/desk/topics">All topics</Link> · {topic.subject ? `a topic under ${topic.subject}` : "a subject"} ·{" "}
        <a href={topic.path}>its page</a>
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
              Edit the topic
            </h2>
            <ErrorSummary items={summary} />
            <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
              {/* After a refused save, the version now saved: saving again replaces it, knowingly. */}
              <input type="hidden" name="version" value={stale?.version ?? topic.version} />
              {formError ? (
                <p className={forms.formMessage} id={form.errorId}>
                  {formError}
                </p>
              ) : null}
              <TopicFields
                fields={fields}
                subjects={subjects}
                flags={topic}
                pageNote="Renaming moves its page to the new name's address; the old address leads there."
              />
              <div className={forms.actions}>
                <button type="submit" className={primaryButton} disabled={submitDisabled}>
                  Save the topic
                </button>
              </div>
            </Form>
          </section>
        ) : null}
        {stale ? (
          <RowFacts title={`Saved since you opened it (version ${stale.version})`} facts={stale.facts} />
        ) : (
          <RowFacts
            title="About this topic"
            facts={[
              [
                "Its page",
                <span key="path" className={css.code}>
                  {topic.path}
                </span>,
              ],
              ["Who may follow", topic.access],
              ["Version", String(topic.version)],
              ["Last saved", topic.updatedAt ? `${topic.updatedAt} by ${topic.updatedBy}` : "As the content files made it"],
            ]}
          >
            {topic.formerSlugs.length > 0 ? (
              <>
                <p>Old addresses that lead to its page:</p>
                <ul>
                  {topic.formerSlugs.map((slug) => (
                    <li key={slug} className={css.code}>
                      {topicPath(slug)}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </RowFacts>
        )}
      </div>
    </DeskPage>
  );
}
