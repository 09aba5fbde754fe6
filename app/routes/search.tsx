import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { HelpBox } from "../components/HelpBox";
import { useRootData } from "../lib/root-data";
import { parsePaging } from "../../shared/pagination";
import { searchArticles } from "../../server/search";
import { MAX_QUERY_LENGTH, normaliseQuery } from "../../shared/search-query";
import { StreamList } from "../components/StreamList";
import * as prose from "../components/prose.css";
import * as controls from "../components/controls.css";
import * as css from "../components/search.css";
import { config, db } from "../lib/db.server";
import { seo, siteUrlFrom } from "../lib/seo";

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const query = normaliseQuery(params.get("q"));
  const unlimited = config().STREAM_UNLIMITED_LOADING;
  if (!query) return data({ query, results: null, unlimited });
  const results = await searchArticles(await db(), query, parsePaging(params, unlimited));
  return data({ query, results, unlimited });
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => [
  ...seo({
    title: d?.query ? `Search results for “${d.query}”` : "Search",
    description: "Search articles, case studies, research summaries and data visuals.",
    path: "/search",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex, follow" },
];

export default function Search() {
  const { query, results, unlimited } = useLoaderData<typeof loader>();
  const root = useRootData();
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Search</h1>
      </header>
      {root?.subscriber ? <HelpBox id="subscriber-search" /> : null}
      <Form method="get" role="search" className={css.form}>
        <label htmlFor="search-q" className={css.label}>
          Search articles
        </label>
        <div className={css.row}>
          <input id="search-q" name="q" type="search" defaultValue={query} maxLength={MAX_QUERY_LENGTH} className={css.input} key={query} />
          <button type="submit" className={controls.primaryButton}>
            Search
          </button>
        </div>
      </Form>
      {results ? (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading" className={prose.sectionHeading}>
            Results for “{query}”
          </h2>
          <StreamList stream={results} unlimited={unlimited} emptyText={`No results for “${query}”. Try fewer or different words.`} />
        </section>
      ) : null}
    </>
  );
}
