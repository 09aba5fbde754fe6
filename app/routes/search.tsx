import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import type { FormEvent } from "react";
import { HelpBox } from "~/app/components/HelpBox";
import { EntryList } from "~/app/components/StreamList";
import { SearchResult } from "~/app/components/SearchResult";
import { useRootData } from "~/app/lib/http/root-data";
import type { SearchResults } from "~/server/search";
import { runSearch } from "~/app/lib/search/page.server";
import { REFERRAL_SEARCH_MORE_RESULTS } from "~/shared/referrals";
import { COUNT_WINDOW } from "~/shared/search-kinds";
import { FIRST_YEAR, MAX_QUERY_LENGTH } from "~/shared/search-query";
import type { SearchForm } from "~/shared/search-form";
import { SEARCH_KIND_NAMES } from "~/shared/search-kinds";
import * as prose from "~/app/components/prose.css";
import * as chips from "~/app/components/chips.css";
import * as controls from "~/app/components/controls.css";
import * as css from "~/app/components/search.css";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";

/** Topics offered in the topic filter: the ones with most results. */
const TOPIC_FILTER_SIZE = 12;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const found = await runSearch({ request, context }, new URL(request.url).searchParams);
  if (!found.results) return data(found);
  // Only the topics the filter offers go to the page: a common word's matches span nearly every
  // topic, and the rest were 80 % of the page's hydration data.
  const topics = found.results.topics.slice(0, TOPIC_FILTER_SIZE);
  const chosen = found.results.topics.find((t) => t.slug === found.form.topic);
  if (chosen && !topics.includes(chosen)) topics.push(chosen);
  return data({ ...found, results: { ...found.results, topics } });
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => [
  ...seo({
    title: d?.form.q ? `Search results for “${d.form.q}”` : "Search",
    description: "Search articles, videos, podcast episodes, magazine issues from 1956 on, and the store.",
    path: "/search",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex, follow" },
];

export default function Search() {
  const { form, results, subjects, unlimited } = useLoaderData<typeof loader>();
  const root = useRootData();
  const submit = useSubmit();
  // With JS, ticking a filter applies it at once; the typed fields wait for the button or Enter.
  const applyChoice = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.type === "checkbox" || target.type === "radio") submit(event.currentTarget, { preventScrollReset: true, replace: true });
  };
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Search</h1>
      </header>
      {root?.subscriber ? (
        <HelpBox id="subscriber-search" headline="Search the whole archive">
          As a subscriber you can search every article and magazine issue since 1956, and open every result in full.
        </HelpBox>
      ) : null}
      <Form method="get" role="search" className={css.form} onChange={applyChoice} aria-label="Search the site">
        <label htmlFor="search-q" className={css.label}>
          Search articles, videos, podcasts, magazine issues and the store
        </label>
        <div className={css.row}>
          <input
            id="search-q"
            name="q"
            type="search"
            defaultValue={form.q}
            maxLength={MAX_QUERY_LENGTH}
            className={css.input}
            key={form.q}
          />
          <button type="submit" className={controls.primaryButton}>
            Search
          </button>
        </div>
        {form.sort === "newest" ? <input type="hidden" name="sort" value="newest" /> : null}
        {results ? (
          <div className={css.layout}>
            <Filters form={form} results={results} />
            <section aria-labelledby="results-heading">
              {subjects.length > 0 ? <Subjects subjects={subjects} /> : null}
              <div className={css.toolbar}>
                <h2 id="results-heading" className={prose.sectionHeading}>
                  Results for “{form.q}”
                </h2>
                <SortLinks sort={form.sort} />
                <a href="#search-filters" className={css.toFilters}>
                  Filter results
                </a>
              </div>
              <EntryList
                stream={results}
                totalText={results.countCapped ? `more than ${COUNT_WINDOW.toLocaleString("en-US")}` : undefined}
                unlimited={unlimited}
                emptyText={`No results for “${form.q}”. Check the spelling, try fewer or more general words, or remove a filter.`}
                renderEntry={(entry) => <SearchResult result={entry} />}
                linkParams={{ referral: REFERRAL_SEARCH_MORE_RESULTS }}
              />
            </section>
          </div>
        ) : null}
      </Form>
    </>
  );
}

type LoadedResults = Omit<SearchResults, "entries">;

function Filters({ form, results }: { form: SearchForm; results: LoadedResults }) {
  const navigation = useNavigation();
  const thisYear = new Date().getFullYear();
  const { topics } = results;
  return (
    <div
      className={css.filters}
      id="search-filters"
      role="group"
      aria-label="Filter results"
      aria-busy={navigation.state !== "idle" ? true : undefined}
    >
      <fieldset className={css.filterGroup}>
        <legend className={css.filterLegend}>Type</legend>
        {results.kinds.map(({ kind, count }) => (
          <label key={kind} className={css.option}>
            <input
              type="checkbox"
              name="type"
              value={kind}
              defaultChecked={form.types.includes(kind)}
              key={`${kind}-${form.types.join()}`}
            />
            {SEARCH_KIND_NAMES[kind]}
            <span className={css.count}>{count.toLocaleString("en-US")}</span>
          </label>
        ))}
      </fieldset>
      {topics.length > 0 ? (
        <fieldset className={css.filterGroup}>
          <legend className={css.filterLegend}>Topic</legend>
          <label className={css.option}>
            <input type="radio" name="topic" value="" defaultChecked={!form.topic} key={`all-${form.topic}`} />
            All topics
          </label>
          {topics.map((t) => (
            <label key={t.slug} className={css.option}>
              <input type="radio" name="topic" value={t.slug} defaultChecked={form.topic === t.slug} key={`${t.slug}-${form.topic}`} />
              {t.name}
              <span className={css.count}>{t.count.toLocaleString("en-US")}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <fieldset className={css.filterGroup}>
        <legend className={css.filterLegend}>Published</legend>
        <div className={css.years}>
          <YearField label="From year" name="from" value={form.from} placeholder={FIRST_YEAR} max={thisYear} />
          <YearField label="To year" name="to" value={form.to} placeholder={thisYear} max={thisYear} />
        </div>
      </fieldset>
      {results.countCapped ? (
        <p className={css.note}>Counts cover the latest {COUNT_WINDOW.toLocaleString("en-US")} matching items.</p>
      ) : null}
      <div className={css.filterActions}>
        <button type="submit" className={controls.primaryButton}>
          Apply filters
        </button>
        <Link to={`?${new URLSearchParams({ q: form.q })}`}>Clear filters</Link>
      </div>
    </div>
  );
}

/** Sorting is a pair of links, so it works without JS and without a second form. */
function SortLinks({ sort }: { sort: SearchForm["sort"] }) {
  const { search } = useLocation();
  const href = (value: SearchForm["sort"]) => {
    const params = new URLSearchParams(search);
    params.delete("page");
    params.delete("loaded");
    params.delete("referral");
    if (value === "newest") params.set("sort", "newest");
    else params.delete("sort");
    return `?${params}`;
  };
  return (
    <nav aria-label="Sort results" className={css.sortField}>
      Sort by:
      {(["relevance", "newest"] as const).map((value) =>
        value === sort ? (
          <span key={value} className={chips.chip} aria-current="true">
            {value === "relevance" ? "Relevance" : "Newest"}
          </span>
        ) : (
          <Link key={value} className={chips.chip} to={href(value)} preventScrollReset>
            {value === "relevance" ? "Relevance" : "Newest"}
          </Link>
        ),
      )}
    </nav>
  );
}

function Subjects({ subjects }: { subjects: { name: string; link: string }[] }) {
  return (
    <div className={css.subjects}>
      <h2 className={css.filterLegend}>Topics</h2>
      <ul className={chips.chipList}>
        {subjects.map((s) => (
          <li key={s.link}>
            <Link className={chips.chip} to={s.link}>
              {s.name}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function YearField({
  label,
  name,
  value,
  placeholder,
  max,
}: {
  label: string;
  name: string;
  value: number | null;
  placeholder: number;
  max: number;
}) {
  return (
    <label className={css.yearField}>
      {label}
      <input
        className={css.yearInput}
        type="number"
        name={name}
        inputMode="numeric"
        min={FIRST_YEAR}
        max={max}
        placeholder={String(placeholder)}
        defaultValue={value ?? ""}
        // A new search's value replaces what was typed (the field is uncontrolled).
        key={`${name}-${value}`}
      />
    </label>
  );
}
