import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listAuthors } from "~/server/desk/catalogue/authors";
import { mayAct } from "~/server/desk/roles";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { CATALOGUE_PAGE_SIZE, listingQuery } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Authors (admins and editors, ADR 078): by name, found by words in the name, slug or role, in
// pages of 25 with plain links that keep the search.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "authors.list");
  const { q, page, problem } = listingQuery(request);
  const found = await listAuthors(await requestContext({ request, context }).db(), { q, page, pageSize: CATALOGUE_PAGE_SIZE });
  return {
    q,
    page,
    problem,
    total: found.total,
    items: found.items.map(({ id, slug, name, role, articles }) => ({ id, slug, name, role, articles })),
    pageSize: CATALOGUE_PAGE_SIZE,
    mayAdd: mayAct(staff.roles, "authors.edit"),
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "authors.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Authors");

export default function DeskAuthors() {
  const { q, page, problem, total, items, pageSize, mayAdd } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Authors">
      {mayAdd ? (
        <p>
          <Link to="/desk/authors/new">Add an author</Link>
        </p>
      ) : null}
      <CatalogueListing
        base="/desk/authors"
        noun={["author", "authors"]}
        q={q}
        page={page}
        total={total}
        pageSize={pageSize}
        problem={problem}
      >
        {items.length > 0 ? (
          <table className={css.table}>
            <caption className="visually-hidden">Authors</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Role</th>
                <th scope="col">Articles</th>
              </tr>
            </thead>
            <tbody>
              {items.map((author) => (
                <tr key={author.id}>
                  <td data-label="Name">
                    <Link to={`/desk/authors/${author.id}`}>{author.name}</Link>
                  </td>
                  <td data-label="Slug">
                    <span className={css.code}>{author.slug}</span>
                  </td>
                  <td data-label="Role">{author.role}</td>
                  <td data-label="Articles">{author.articles}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </CatalogueListing>
    </DeskPage>
  );
}
