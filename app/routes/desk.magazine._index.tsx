import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isStorableText } from "~/server/db/storable-text";
import { issueYears, listDeskIssues } from "~/server/desk/magazine";
import { mayAct } from "~/server/desk/roles";
import { issueQuerySchema } from "~/shared/issue-fields";
import { Pagination } from "~/app/components/Pagination";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// The magazine's issues (issue 38): newest first by their date, one year's or all, 25 a page with
// plain links that keep the year.

const PAGE_SIZE = 25;
const BAD_QUERY = "The year or page could not be read and was left out.";

/** The year and page from the address: what cannot be read is left out on its own, and said so. */
function listingQuery(request: Request): { year?: number; page: number; problem: string | null } {
  const params = new URL(request.url).searchParams;
  let problem = false;
  const wanted: { year?: number; page?: number } = {};
  for (const key of ["year", "page"] as const) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    const one = isStorableText(value) ? issueQuerySchema.safeParse({ [key]: value }) : undefined;
    if (one?.success) Object.assign(wanted, one.data);
    else problem = true;
  }
  return { year: wanted.year, page: wanted.page ?? 1, problem: problem ? BAD_QUERY : null };
}

function issuesHref(year: number | undefined, page: number): string {
  const query = new URLSearchParams();
  if (year !== undefined) query.set("year", String(year));
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `/desk/magazine?${search}` : "/desk/magazine";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "issues.list");
  const { year, page, problem } = listingQuery(request);
  const db = await requestContext({ request, context }).db();
  const [{ total, items }, years] = await Promise.all([listDeskIssues(db, { year, page, pageSize: PAGE_SIZE }), issueYears(db)]);
  return {
    year: year ?? null,
    page,
    problem,
    total,
    lastPage: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    years,
    items: items.map((issue) => ({ ...issue, updatedAt: issue.updatedAt && deskTime(issue.updatedAt) })),
    mayAdd: mayAct(staff.roles, "issues.edit"),
  };
}

/** Nothing is posted here; anyone without a role still gets the desk's 404 rather than a 405. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireDesk({ request, context }, "issues.list");
  notFound();
}

export const meta: MetaFunction = (args) => deskMeta(args, "Magazine");

export default function DeskIssues() {
  const { year, page, problem, total, lastPage, years, items, mayAdd } = useLoaderData<typeof loader>();
  const shown = year ?? undefined;
  return (
    <DeskPage title="Magazine">
      {mayAdd ? (
        <p>
          <Link to="/desk/magazine/new" className={primaryButton}>
            New issue
          </Link>
        </p>
      ) : null}
      <Form method="get" action="/desk/magazine" className={css.search} aria-label="Show one year's issues">
        <div className={forms.field}>
          <label className={forms.label} htmlFor="issues-year">
            Year
          </label>
          <select id="issues-year" name="year" className={forms.input} defaultValue={year === null ? "" : String(year)}>
            <option value="">Every year</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Show
          </button>
          {year !== null ? <Link to="/desk/magazine">Every year</Link> : null}
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        {total === 0
          ? year !== null
            ? `No issues in ${year}.`
            : "No issues yet."
          : `${total} ${total === 1 ? "issue" : "issues"}${year !== null ? ` in ${year}` : ""}, newest first. Page ${Math.min(page, lastPage)} of ${lastPage}.`}
      </p>
      {items.length > 0 ? (
        <table className={css.table}>
          <caption className="visually-hidden">Magazine issues, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Issue</th>
              <th scope="col">Date</th>
              <th scope="col">Cover story</th>
              <th scope="col">Features</th>
              <th scope="col">Cover</th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {items.map((issue) => (
              <tr key={issue.id}>
                <td data-label="Issue">
                  <Link to={`/desk/magazine/${issue.id}`} className={css.code}>
                    {issue.code}
                  </Link>
                </td>
                <td data-label="Date">
                  {issue.monthLabel} {issue.year}
                </td>
                <td data-label="Cover story">{issue.title}</td>
                <td data-label="Features">{issue.features}</td>
                <td data-label="Cover">{issue.hasCover ? "Uploaded" : "Drawn"}</td>
                <td data-label="Last changed">{issue.updatedAt ? `${issue.updatedAt} by ${issue.updatedBy}` : "As seeded"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={lastPage} href={(to) => issuesHref(shown, to)} label="Pages of issues" />
    </DeskPage>
  );
}
