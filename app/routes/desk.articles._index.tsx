import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { isStorableText } from "~/server/db/storable-text";
import { articleChoices } from "~/server/desk/article-choices";
import { listDeskArticles } from "~/server/desk/articles";
import { ARTICLE_STATUS_NAMES, ARTICLE_STATUSES } from "~/shared/article-vocabulary";
import { Pagination } from "~/app/components/Pagination";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { StatusBadge } from "~/app/components/desk/articles/StatusBadge";
import * as css from "~/app/components/desk/articles/articles.css";
import * as desk from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// The desk's articles (issue 38): every state, newest first, filtered by a plain GET form and
// paged with links that keep the filter.

const PAGE_SIZE = 25;
const FILTER_KEYS = ["q", "status", "topic", "author", "type"] as const;

const querySchema = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(ARTICLE_STATUSES).optional(),
  topic: z.string().trim().max(120).optional(),
  author: z.string().trim().max(120).optional(),
  type: z.string().trim().max(60).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

const BAD_FILTER = "Some of the filter could not be read and was left out.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "articles.list");
  const entries = [...new URL(request.url).searchParams].filter(([, value]) => value.trim() !== "");
  const storable = entries.filter(([key, value]) => isStorableText(key) && isStorableText(value));
  // A filter that cannot be read is left out on its own; the rest still apply.
  const wanted: z.infer<typeof querySchema> = {};
  let problem = storable.length !== entries.length;
  for (const [key, value] of storable) {
    const one = querySchema.safeParse({ [key]: value });
    if (one.success) Object.assign(wanted, one.data);
    else problem = true;
  }
  const page = wanted.page ?? 1;
  const db = await requestContext({ request, context }).db();
  const [{ items, total }, choices] = await Promise.all([
    listDeskArticles(db, {
      q: wanted.q,
      status: wanted.status,
      topic: wanted.topic,
      author: wanted.author,
      contentType: wanted.type,
      page,
      pageSize: PAGE_SIZE,
    }),
    articleChoices(db),
  ]);
  const authorNames = new Map(choices.authors.map((a) => [a.slug, a.name]));
  return {
    filter: Object.fromEntries(FILTER_KEYS.map((key) => [key, wanted[key] ?? ""])) as Record<(typeof FILTER_KEYS)[number], string>,
    problem: problem ? BAD_FILTER : null,
    choices,
    rows: items.map((item) => ({
      id: item.id,
      title: item.title,
      status: item.status,
      authors: item.authors.map((slug) => authorNames.get(slug) ?? slug).join(", "),
      topic: item.topics[0] ?? "",
      type: item.contentType,
      date: item.publishedAt,
      publishAt: item.publishAt && deskTime(item.publishAt),
      url: item.url,
      changed: item.updatedAt ? deskTime(item.updatedAt) : null,
    })),
    page,
    lastPage: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "articles.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Articles");

export default function DeskArticles() {
  const { filter, problem, choices, rows, page, lastPage, total } = useLoaderData<typeof loader>();
  const filtered = Object.values(filter).some((value) => value !== "");
  const href = (to: number) => {
    const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
    if (to > 1) query.set("page", String(to));
    const search = query.toString();
    return search ? `/desk/articles?${search}` : "/desk/articles";
  };
  return (
    <DeskPage title="Articles">
      <div className={css.toolbar}>
        <p className={css.count} role="status">
          {total === 0
            ? "No articles match."
            : `${total} ${total === 1 ? "article" : "articles"}${filtered ? " match" : ""}, newest first. Page ${page} of ${lastPage}.`}
        </p>
        <Link to="/desk/articles/new" className={primaryButton}>
          New article
        </Link>
      </div>
      <Form method="get" className={css.filters} aria-label="Filter the articles">
        <div className={`${forms.field} ${css.filterWide}`}>
          <label className={forms.label} htmlFor="articles-q">
            Search
          </label>
          <input
            id="articles-q"
            name="q"
            type="search"
            className={forms.input}
            defaultValue={filter.q}
            placeholder="Title, dek or summary"
          />
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="articles-status">
            State
          </label>
          <select id="articles-status" name="status" className={forms.input} defaultValue={filter.status}>
            <option value="">Any state</option>
            {ARTICLE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ARTICLE_STATUS_NAMES[status]}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="articles-topic">
            Topic
          </label>
          <input id="articles-topic" name="topic" list="articles-topics" className={forms.input} defaultValue={filter.topic} />
          <datalist id="articles-topics">
            {choices.topics.map((topic) => (
              <option key={topic.name} value={topic.name} />
            ))}
          </datalist>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="articles-author">
            Author
          </label>
          <select id="articles-author" name="author" className={forms.input} defaultValue={filter.author}>
            <option value="">Anyone</option>
            {choices.authors.map((author) => (
              <option key={author.slug} value={author.slug}>
                {author.name}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="articles-type">
            Content type
          </label>
          <select id="articles-type" name="type" className={forms.input} defaultValue={filter.type}>
            <option value="">Any type</option>
            {choices.contentTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <div className={css.filterActions}>
          <button type="submit" className={forms.secondaryButton}>
            Filter
          </button>
          {filtered ? <Link to="/desk/articles">Clear</Link> : null}
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <table className={desk.table}>
          <caption className="visually-hidden">Articles, newest first</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Title</th>
              <th scope="col">Authors</th>
              <th scope="col">Primary topic</th>
              <th scope="col">Type</th>
              <th scope="col">Date</th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td data-label="State">
                  <StatusBadge status={row.status} />
                  {row.publishAt ? <span className={css.sub}>at {row.publishAt}</span> : null}
                </td>
                <td data-label="Title">
                  <Link to={`/desk/articles/${row.id}`} className={css.titleLink}>
                    {row.title}
                  </Link>
                  {row.url ? (
                    <span className={css.sub}>
                      <a href={row.url}>
                        {row.url}
                        <span className="visually-hidden"> (on the site)</span>
                      </a>
                    </span>
                  ) : null}
                </td>
                <td data-label="Authors">{row.authors}</td>
                <td data-label="Primary topic">{row.topic}</td>
                <td data-label="Type">{row.type}</td>
                <td data-label="Date" className={css.nowrap}>
                  {row.date}
                </td>
                <td data-label="Last change">{row.changed ?? <span className={desk.muted}>Seeded</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={lastPage} href={href} label="Article pages" />
    </DeskPage>
  );
}
