import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createTopic, listSubjects } from "~/server/desk/catalogue/topics";
import { topicFieldsSchema } from "~/shared/catalogue-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { TopicFields } from "~/app/components/desk/TopicFields";
import * as css from "~/app/components/desk/desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { createCatalogueRow } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// A new topic, or a subject (ADR 078): its page is /topic/subject/{the name's slug}.

const loadSchema: SchemaLoader<typeof topicFieldsSchema> = () => import("~/shared/catalogue-fields").then((m) => m.topicFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "topics.edit");
  const subjects = await listSubjects(await requestContext(args).db());
  return { subjects: subjects.map((s) => s.name) };
}

export const action = (args: ActionFunctionArgs) => createCatalogueRow(args, "topic", topicFieldsSchema, createTopic);

export const meta: MetaFunction = (args) => deskMeta(args, "Add a topic");

export default function DeskNewTopic() {
  const { subjects } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-topic", loadSchema, actionData?.result);
  return (
    <DeskPage title="Add a topic">
      <p className={css.muted}>
        <Link to="/desk/topics">All topics</Link>
      </p>
      <CatalogueForm spec={spec} button="Add the topic">
        <TopicFields
          fields={fields}
          subjects={subjects}
          flags={{ subscriberOnly: false, executiveOnly: false }}
          pageNote="Its page's address is made from it."
        />
      </CatalogueForm>
    </DeskPage>
  );
}
