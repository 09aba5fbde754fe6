import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { mayAct } from "~/server/desk/roles";
import { listDeskReadingLists } from "~/server/desk/curation";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// Every reading list, by title: how many articles each holds and its last change at the desk.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "reading-lists.list");
  const lists = await listDeskReadingLists(await requestContext({ request, context }).db());
  return {
    lists: lists.map((list) => ({ ...list, updatedAt: list.updatedAt && deskTime(list.updatedAt) })),
    mayCreate: mayAct(staff.roles, "reading-lists.edit"),
  };
}

/** Nothing is posted here; anyone without a role still gets the desk's 404 rather than a 405. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireDesk({ request, context }, "reading-lists.list");
  notFound();
}

export const meta: MetaFunction = (args) => deskMeta(args, "Reading lists");

export default function DeskReadingLists() {
  const { lists, mayCreate } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Reading lists">
      <p className={css.muted}>
        {lists.length === 1 ? "One list" : `${lists.length} lists`}, by title. Readers see a list&rsquo;s published articles, in its order;
        subscribers see all of them.
      </p>
      {mayCreate ? (
        <p>
          <Link to="/desk/reading-lists/new" className={primaryButton}>
            New reading list
          </Link>
        </p>
      ) : null}
      <table className={css.table}>
        <caption className="visually-hidden">Reading lists</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Page</th>
            <th scope="col">Articles</th>
            <th scope="col">Last changed</th>
          </tr>
        </thead>
        <tbody>
          {lists.map((list) => (
            <tr key={list.id}>
              <td data-label="Title">
                <Link to={`/desk/reading-lists/${list.id}`}>{list.name}</Link>
              </td>
              <td data-label="Page">
                <a href={`/reading-lists/${list.slug}`} className={css.code}>
                  /reading-lists/{list.slug}
                </a>
              </td>
              <td data-label="Articles">{list.size}</td>
              <td data-label="Last changed">{list.updatedAt ? `${list.updatedAt} by ${list.updatedBy}` : "As seeded"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </DeskPage>
  );
}
