import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listRevisions } from "~/server/desk/articles";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { StatusBadge } from "~/app/components/desk/articles/StatusBadge";
import * as css from "~/app/components/desk/articles/articles.css";
import * as desk from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { articleFromParam } from "~/app/lib/desk/articles.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// An article's revisions, newest first: every save, state change and restore made one, and each
// sitting's autosaves one between them.

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "articles.list");
  const db = await requestContext({ request, context }).db();
  const article = await articleFromParam(db, params.id);
  const revisions = await listRevisions(db, article.id);
  return {
    article: { id: article.id, title: article.title, version: article.version },
    revisions: revisions.map((r) => ({
      id: r.id,
      version: r.version,
      status: r.status,
      at: deskTime(r.savedAt),
      // An editor's autosaves of one sitting make one revision, the last of them (ADR 085).
      by: r.autosaved ? `${r.savedBy.name}, autosaved` : r.savedBy.name,
    })),
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "articles.list");
  notFound();
};

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Revisions: ${args.data.article.title}` : "Revisions");

export default function ArticleRevisions() {
  const { article, revisions } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Revisions">
      <p className={css.crumbs}>
        <Link to="/desk/articles">Articles</Link> · <Link to={`/desk/articles/${article.id}`}>{article.title}</Link>
      </p>
      {revisions.length === 0 ? (
        <p className={css.unchanged}>
          No revisions yet: the article is as the content files made it. Its first change at the desk starts its history.
        </p>
      ) : (
        <table className={desk.table}>
          <caption className="visually-hidden">Revisions of {article.title}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">State</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {revisions.map((r) => (
              <tr key={r.id}>
                <td data-label="Version">
                  {r.version}
                  {r.version === article.version ? <span className={css.sub}>Current</span> : null}
                </td>
                <td data-label="When" className={css.nowrap}>
                  {r.at}
                </td>
                <td data-label="Who">{r.by}</td>
                <td data-label="State">
                  <StatusBadge status={r.status} />
                </td>
                <td data-label="Changes">
                  <Link to={`/desk/articles/${article.id}/revisions/${r.id}`} aria-label={`See version ${r.version}'s changes`}>
                    See version {r.version}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </DeskPage>
  );
}
