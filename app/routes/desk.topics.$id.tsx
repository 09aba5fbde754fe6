import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskTopic, listSubjects, updateTopic, type DeskTopic } from "~/server/desk/catalogue/topics";
import { topicEditSchema } from "~/shared/catalogue-fields";
import { topicPath } from "~/shared/urls";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { TopicFields } from "~/app/components/desk/TopicFields";
import * as css from "~/app/components/desk/desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { catalogueRow, saveCatalogueRow, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// One topic or subject (ADR 078). A rename moves its page, and the old addresses lead to the new
// one; the form carries the version it was opened at, and a stale save is refused as an author's is.

const loadSchema: SchemaLoader<typeof topicEditSchema> = () => import("~/shared/catalogue-fields").then((m) => m.topicEditSchema);

const access = (t: Pick<DeskTopic, "subscriberOnly" | "executiveOnly">) =>
  t.executiveOnly ? "Executive subscribers only" : t.subscriberOnly ? "Subscribers only" : "Everyone";

export async function loader(args: LoaderFunctionArgs) {
  const { row: topic, db, mayEdit, saved } = await catalogueRow(args, "topic", getDeskTopic);
  const subjects = await listSubjects(db);
  return {
    topic: { ...topic, updatedAt: topic.updatedAt && deskTime(topic.updatedAt), access: access(topic) },
    subjects: subjects.filter((s) => s.id !== topic.id).map((s) => s.name),
    mayEdit,
    saved,
  };
}

const savedVersion = (topic: DeskTopic): SavedVersion => ({
  version: topic.version,
  facts: [
    ["Name", topic.name],
    ["Description", topic.description],
    ["Subject", topic.subject ?? "None: a subject"],
    ["Who may follow", access(topic)],
  ],
});

export const action = (args: ActionFunctionArgs) => saveCatalogueRow(args, "topic", topicEditSchema, updateTopic, savedVersion);

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Topic: ${args.data.topic.name}` : "Topic");

export default function DeskTopic() {
  const { topic, subjects, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-topic", loadSchema, actionData?.result, {
    name: topic.name,
    description: topic.description,
    subject: topic.subject ?? "",
  });
  return (
    <DeskPage title={topic.name}>
      <p className={css.muted}>
        <Link to="/desk/topics">All topics</Link> · {topic.subject ? `a topic under ${topic.subject}` : "a subject"} ·{" "}
        <a href={topic.path}>its page</a>
      </p>
      <CatalogueEditor
        noun="topic"
        saved={saved}
        mayEdit={mayEdit}
        stale={stale}
        version={topic.version}
        spec={spec}
        button="Save the topic"
        about={
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
        }
      >
        <TopicFields
          fields={fields}
          subjects={subjects}
          flags={topic}
          pageNote="Renaming moves its page to the new name's address; the old address leads there."
        />
      </CatalogueEditor>
    </DeskPage>
  );
}
