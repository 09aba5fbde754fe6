import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { issueByCode, issueCodeNow } from "~/server/content/archive";
import { isIssueCode } from "~/shared/issue-fields";
import { socialCard } from "~/shared/social-cards";
import { ogImage } from "~/shared/uploaded-images";
import { issuePath } from "~/shared/urls";
import { IssueCover } from "~/app/components/IssueCard";
import * as css from "~/app/components/magazine.css";
import * as prose from "~/app/components/prose.css";
import { config, db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";
import { redirect } from "~/app/lib/http/responses.server";
import { JsonLd } from "~/app/components/JsonLd";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const code = params.code ?? "";
  if (!isIssueCode(code)) throw new Response(null, { status: 404 });
  const database = await db();
  const issue = await issueByCode(database, code);
  if (!issue) {
    // A code changed at the desk: its old address goes on to the issue's page now.
    const now = await issueCodeNow(database, code);
    if (now) throw redirect(issuePath(now) + new URL(request.url).search, 301);
    throw new Response(null, { status: 404 });
  }
  return { issue, siteUrl: config().siteUrl };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const { issue } = data;
  const siteUrl = siteUrlFrom(matches);
  return seo({
    title: `${issue.monthLabel} ${issue.year}: ${issue.title}`,
    description: issue.summary,
    path: issue.url,
    siteUrl,
    card: socialCard("issue", issue.artKey, issue.title),
    image: issue.coverImage ? ogImage(issue.coverImage, siteUrl) : undefined,
  });
};

export default function IssueContents() {
  const { issue, siteUrl } = useLoaderData<typeof loader>();
  return (
    <div className={css.tocLayout}>
      <JsonLd data={schema.magazineIssue(siteUrl, issue)} />
      <IssueCover issue={issue} sizes="(min-width: 768px) 360px, 100vw" scale={1} lazy={false} className={css.cover} />
      <div>
        <p className={prose.lede}>
          <Link to={`/magazine?year=${issue.year}`}>
            {issue.monthLabel} {issue.year}
          </Link>{" "}
          · Issue {issue.code}
        </p>
        <h1>{issue.title}</h1>
        <p className={prose.lede}>{issue.summary}</p>
        {issue.featuring.length > 0 ? (
          <>
            <h2 className={prose.sectionHeading}>Featuring</h2>
            <ol>
              {issue.featuring.map((f, index) => (
                <li key={`${index}:${f.title}`}>{f.url ? <Link to={f.url}>{f.title}</Link> : f.title}</li>
              ))}
            </ol>
          </>
        ) : null}
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
