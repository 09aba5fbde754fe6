import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDeskTopics } from "~/server/desk/catalogue/topics";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { catalogueListing, refuseListingPost } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Topics and subjects (admins and editors, ADR 078): by name, found by words in the name or
// slug, in pages of 25 with plain links that keep the search.

const access = (t: { subscriberOnly: boolean; executiveOnly: boolean }) =>
  t.executiveOnly ? "Executive subscribers" : t.subscriberOnly ? "Subscribers" : "Everyone";

export const loader = (args: LoaderFunctionArgs) =>
  catalogueListing(args, "topic", listDeskTopics, (t) => ({
    id: t.id,
    name: t.name,
    subject: t.subject,
    articles: t.articles,
    access: access(t),
  }));

export const action = (args: ActionFunctionArgs) => refuseListingPost(args, "topic");

export const meta: MetaFunction = (args) => deskMeta(args, "Topics");

export default function DeskTopics() {
  const { items, mayAdd, ...listing } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Topics">
      {mayAdd ? (
        <p>
          <Link to="/desk/topics/new">Add a topic or subject</Link>
        </p>
      ) : null}
      <CatalogueListing
        base="/desk/topics"
        noun={["topic", "topics"]}
        {...listing}
        caption="Topics"
        columns={["Name", "Subject", "Who may follow", "Articles"]}
        rows={items.map((topic) => ({
          key: topic.id,
          cells: [
            <Link key="name" to={`/desk/topics/${topic.id}`}>
              {topic.name}
            </Link>,
            topic.subject ?? "A subject",
            topic.access,
            topic.articles,
          ],
        }))}
      />
    </DeskPage>
  );
}
