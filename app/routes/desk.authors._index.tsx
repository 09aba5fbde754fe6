import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listAuthors } from "~/server/desk/catalogue/authors";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { catalogueListing, refuseListingPost } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Authors (admins and editors, ADR 078): by name, found by words in the name, slug or role, in
// pages of 25 with plain links that keep the search.

export const loader = (args: LoaderFunctionArgs) =>
  catalogueListing(args, "author", listAuthors, ({ id, slug, name, role, articles }) => ({ id, slug, name, role, articles }));

export const action = (args: ActionFunctionArgs) => refuseListingPost(args, "author");

export const meta: MetaFunction = (args) => deskMeta(args, "Authors");

export default function DeskAuthors() {
  const { items, mayAdd, ...listing } = useLoaderData<typeof loader>();
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
        {...listing}
        caption="Authors"
        columns={["Name", "Slug", "Role", "Articles"]}
        rows={items.map((author) => ({
          key: author.id,
          cells: [
            <Link key="name" to={`/desk/authors/${author.id}`}>
              {author.name}
            </Link>,
            <span key="slug" className={css.code}>
              {author.slug}
            </span>,
            author.role,
            author.articles,
          ],
        }))}
      />
    </DeskPage>
  );
}
