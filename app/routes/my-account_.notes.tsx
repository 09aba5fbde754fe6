import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { annotationsForUser } from "~/server/library/annotations";
import { lastPage } from "~/shared/pagination";
import { NoteText } from "~/app/components/ArticleNotes";
import { Pagination } from "~/app/components/Pagination";
import * as prose from "~/app/components/prose.css";
import * as css from "~/app/components/subscriber-tools.css";
import { db } from "~/app/lib/context/db.server";
import { formatPublished } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { requireUser } from "~/app/lib/context/request-context.server";

const PAGE_SIZE = 20;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const value = new URL(request.url).searchParams.get("page") ?? "1";
  const page = /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 0;
  if (!page) throw new Response("No such page", { status: 404 });
  const { total, annotations } = await annotationsForUser(await db(), user.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const last = lastPage(total, PAGE_SIZE);
  if (page > last) throw new Response("No such page", { status: 404 });
  return {
    page,
    last,
    total,
    notes: annotations.map((n) => ({
      id: n.id,
      paragraph: n.paragraph,
      quote: n.quote,
      note: n.note,
      saved: formatPublished(n.createdAt),
      articleTitle: n.articleTitle,
      articleUrl: n.articleUrl,
    })),
  };
}

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Your notes",
    description: "Every note you have kept on articles.",
    path: "/my-account/notes",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function MyNotes() {
  const { page, last, total, notes } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Your notes</h1>
      <p>
        {total === 0
          ? "You have no notes yet. Subscribers can add notes at the end of any article."
          : `${total} ${total === 1 ? "note" : "notes"}, newest first. Open an article to add or delete notes.`}{" "}
        <Link to="/my-account">Back to My account</Link>
      </p>
      {notes.length > 0 ? (
        <ol className={css.notes}>
          {notes.map((n) => (
            <li key={n.id} className={css.note}>
              <h2 className={css.heading}>
                <Link to={`${n.articleUrl}#notes`}>{n.articleTitle}</Link>
              </h2>
              <NoteText note={n} />
              <p className={css.noteMeta}>Saved on {n.saved}.</p>
            </li>
          ))}
        </ol>
      ) : null}
      <Pagination current={page} last={last} href={(p) => `/my-account/notes?page=${p}`} label="Pages of notes" />
    </div>
  );
}
