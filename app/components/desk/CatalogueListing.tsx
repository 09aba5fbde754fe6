import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Pagination } from "~/app/components/Pagination";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "./desk.css";

/** A listing page's address, keeping its search. */
export function listingHref(base: string, q: string, page: number): string {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `${base}?${search}` : base;
}

/** A table row: its key, and a cell for each column. */
export interface ListingRow {
  key: number | string;
  cells: ReactNode[];
}

/**
 * The desk's listing of authors, topics, videos or episodes: a search (a plain GET form), how many it found, the
 * table (each cell labelled by its column, for narrow screens), and links to the other pages
 * that keep the search.
 */
export function CatalogueListing({
  base,
  noun,
  q,
  page,
  total,
  pageSize,
  problem,
  caption,
  columns,
  rows,
  order = "by name",
  idle,
}: {
  base: string;
  /** Singular and plural: ["author", "authors"]. */
  noun: [string, string];
  q: string;
  page: number;
  total: number;
  pageSize: number;
  problem: string | null;
  caption: string;
  columns: string[];
  rows: ListingRow[];
  /** How the table is ordered, as the count says it. */
  order?: string;
  /** What the count says before any search, for a listing that lists nothing until asked. */
  idle?: string;
}) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  return (
    <>
      <Form method="get" action={base} className={css.search} role="search" aria-label={`Find ${noun[1]}`}>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="catalogue-q">
            Find {noun[1]}
          </label>
          <input id="catalogue-q" name="q" type="search" className={forms.input} defaultValue={q} maxLength={200} />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Search
          </button>
          {q ? <Link to={base}>Clear</Link> : null}
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        {total === 0
          ? q
            ? `No ${noun[1]} match “${q}”.`
            : (idle ?? `No ${noun[1]} yet.`)
          : `${total} ${total === 1 ? noun[0] : noun[1]}${q ? ` match “${q}”` : ""}, ${order}. Page ${Math.min(page, last)} of ${last}.`}
      </p>
      {rows.length > 0 ? (
        <table className={css.table}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                {row.cells.map((cell, index) => (
                  <td key={columns[index]} data-label={columns[index]}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={last} href={(to) => listingHref(base, q, to)} label={`Pages of ${noun[1]}`} />
    </>
  );
}
