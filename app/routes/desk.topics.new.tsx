import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { createTopic, listSubjects } from "~/server/desk/catalogue/topics";
import { topicFieldsSchema } from "~/shared/catalogue-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { TopicFields } from "~/app/components/desk/TopicFields";
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

// A new topic, or a subject (ADR 078): its page is /topic/subject/{the name's slug}.

const loadSchema: SchemaLoader<typeof topicFieldsSchema> = () => import("~/shared/catalogue-fields").then((m) => m.topicFieldsSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "topics.edit");
  const subjects = await listSubjects(await requestContext({ request, context }).db());
  return { subjects: subjects.map((s) => s.name) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "topics.edit");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: topicFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createTopic(await requestContext({ request, context }).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/topics/${made.value.id}?saved=created`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "Add a topic");

export default function DeskNewTopic() {
  const { subjects } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("new-topic", loadSchema, actionData?.result);
  return (
    <DeskPage title="Add a topic">
      <p className={css.muted}>
        <Link to="/desk/topics">All topics</Link>
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <TopicFields
          fields={fields}
          subjects={subjects}
          flags={{ subscriberOnly: false, executiveOnly: false }}
          pageNote="Its page's address is made from it."
        />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Add the topic
          </button>
        </div>
      </Form>
    </DeskPage>
  );
}
