import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { issueByCode } from "~/server/content/archive";
import { ISSUE_COVER_SIZE } from "~/shared/art-sizes";
import { isIssueCode } from "~/server/content/archive-calendar";
import { socialCard } from "~/shared/social-cards";
import { coverAlt } from "~/app/components/IssueCard";
import * as css from "~/app/components/magazine.css";
import * as prose from "~/app/components/prose.css";
import { config, db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";
import { JsonLd } from "~/app/components/JsonLd";

export async function loader({ params }: LoaderFunctionArgs) {
  const code = params.code ?? "";
  const issue = isIssueCode(code) ? await issueByCode(await db(), code) : undefined;
  if (!issue) throw new Response(null, { status: 404 });
  return { issue, siteUrl: config().siteUrl };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const { issue } = data;
  return seo({
    title: `${issue.monthLabel} ${issue.year}: ${issue.title}`,
    description: issue.summary,
    path: issue.url,
    siteUrl: siteUrlFrom(matches),
    card: socialCard("issue", issue.code, issue.title),
  });
};

export default function IssueContents() {
  const { issue, siteUrl } = useLoaderData<typeof loader>();
  return (
    <div className={css.tocLayout}>
      <JsonLd data={schema.magazineIssue(siteUrl, issue)} />
      <img className={css.cover} src={issue.cover} alt={coverAlt(issue)} width={ISSUE_COVER_SIZE.width} height={ISSUE_COVER_SIZE.height} />
      <div>
        <p className={prose.lede}>
          <Link to={`/magazine?year=${issue.year}`}>
            {issue.monthLabel} {issue.year}
          </Link>{" "}
          · Issue {issue.code}
        </p>
        <h1>{issue.title}</h1>
        <p className={prose.lede}>{issue.summary}</p>
        <h2 className={prose.sectionHeading}>Featuring</h2>
        <ol>
          {issue.featuring.map((f) => (
            <li key={f.title}>{f.url ? <Link to={f.url}>{f.title}</Link> : f.title}</li>
          ))}
        </ol>
        <nav aria-label="Other issues" className={css.finder}>
          {issue.previous ? (
            <Link to={issue.previous.url} rel="prev">
              Previous issue: {issue.previous.monthLabel} {issue.previous.year}
            </Link>
          ) : null}
          {issue.next ? (
            <Link to={issue.next.url} rel="next">
              Next issue: {issue.next.monthLabel} {issue.next.year}
            </Link>
          ) : null}
          <Link to="/magazine">All issues</Link>
        </nav>
      </div>
    </div>
  );
}
