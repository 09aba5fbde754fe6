import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { archiveYears, issuesOfYear } from "~/server/content/archive";
import { IssueCard } from "~/app/components/IssueCard";
import { IssueFinder } from "~/app/components/IssueFinder";
import * as css from "~/app/components/magazine.css";
import * as prose from "~/app/components/prose.css";
import { config, db } from "~/app/lib/context/db.server";
import { pickMonthIndex, pickYear } from "~/app/lib/content/issue-finder";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";
import { JsonLd } from "~/app/components/JsonLd";
import { pageCard } from "~/shared/page-cards";

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const database = await db();
  const archive = await archiveYears(database);
  const years = archive.map((y) => y.yearId);
  const year = pickYear(years, params.get("year"));
  if (year === undefined) throw new Response(null, { status: 404 });
  const issues = await issuesOfYear(database, year);
  return {
    years,
    year,
    issues,
    selectedMonth: pickMonthIndex(issues.length, params.get("month")),
    isDefaultYear: !params.has("year"),
    siteUrl: config().siteUrl,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const title = data.isDefaultYear ? "Magazine Archive" : `Magazine Archive: ${data.year}`;
  return seo({
    title,
    description: `Every issue of the magazine from ${data.years.at(-1)} to ${data.years[0]}, with covers, summaries and the features in each. Showing ${data.year}.`,
    path: data.isDefaultYear ? "/magazine" : `/magazine?year=${data.year}`,
    siteUrl: siteUrlFrom(matches),
    card: pageCard("magazine"),
  });
};

export default function Magazine() {
  const { years, year, issues, selectedMonth, siteUrl } = useLoaderData<typeof loader>();
  return (
    <>
      <JsonLd data={schema.magazine(siteUrl, years.at(-1) ?? year, issues)} />
      <header className={prose.pageHeading}>
        <h1>Magazine Archive</h1>
        <p className={prose.lede}>
          Every issue since {years.at(-1)}: {years.length} years of ideas about management, in print.
        </p>
      </header>
      <IssueFinder
        years={years}
        months={issues.map((i) => ({ label: i.monthLabel, url: i.url }))}
        selectedYear={year}
        selectedMonth={selectedMonth}
      />
      <nav aria-label="Archive years">
        <ul className={css.years}>
          {years.map((y) => (
            <li key={y}>
              <Link className={css.yearLink} to={`/magazine?year=${y}`} aria-current={y === year ? "page" : undefined}>
                {y}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <h2 className={prose.sectionHeading}>Issues of {year}</h2>
      <ul className={css.issueList}>
        {issues.map((issue) => (
          <li key={issue.code}>
            <IssueCard issue={issue} featuring={issue.featuring} />
          </li>
        ))}
      </ul>
    </>
  );
}
