import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDeskTopics } from "~/server/desk/catalogue/topics";
import { mayAct } from "~/server/desk/roles";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { CATALOGUE_PAGE_SIZE, listingQuery } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Topics and subjects (admins and editors, ADR 078): by name, found by words in the name or
// slug, in pages of 25 with plain links that keep the search.

const access = (t: { subscriberOnly: boolean; executiveOnly: boolean }) =>
  t.executiveOnly ? "Executive subscribers" : t.subscriberOnly ? "Subscribers" : "Everyone";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "topics.list");
  const { q, page, problem } = listingQuery(request);
  const found = await listDeskTopics(await requestContext({ request, context }).db(), { q, page, pageSize: CATALOGUE_PAGE_SIZE });
  return {
    q,
    page,
    problem,
    total: found.total,
    items: found.items.map((t) => ({ id: t.id, name: t.name, subject: t.subject, articles: t.articles, access: access(t) })),
    pageSize: CATALOGUE_PAGE_SIZE,
    mayAdd: mayAct(staff.roles, "topics.edit"),
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "topics.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Topics");

export default function DeskTopics() {
  const { q, page, problem, total, items, pageSize, mayAdd } = useLoaderData<typeof loader>();
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
        q={q}
        page={page}
        total={total}
        pageSize={pageSize}
        problem={problem}
      >
        {items.length > 0 ? (
          <table className={css.table}>
            <caption className="visually-hidden">Topics</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Subject</th>
                <th scope="col">Who may follow</th>
                <th scope="col">Articles</th>
              </tr>
            </thead>
            <tbody>
              {items.map((topic) => (
                <tr key={topic.id}>
                  <td data-label="Name">
                    <Link to={`/desk/topics/${topic.id}`}>{topic.name}</Link>
                  </td>
                  <td data-label="Subject">{topic.subject ?? "A subject"}</td>
                  <td data-label="Who may follow">{topic.access}</td>
                  <td data-label="Articles">{topic.articles}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </CatalogueListing>
    </DeskPage>
  );
}
