import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { homePage } from "../../server/home";
import { ArticleCard } from "../components/ArticleCard";
import { CardGridSection } from "../components/CardGridSection";
import { HelpBox } from "../components/HelpBox";
import { IssueCard } from "../components/IssueCard";
import * as cards from "../components/cards.css";
import * as css from "../components/home.css";
import * as prose from "../components/prose.css";
import { db } from "../lib/db.server";
import { seo, siteUrlFrom } from "../lib/seo";
import { SITE_NAME } from "../lib/site";
import { useRootData } from "../lib/root-data";

export async function loader() {
  return homePage(await db());
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: SITE_NAME,
    description: "Ideas and advice for leaders: management research, case studies, data and the magazine archive since 1956.",
    path: "/",
    siteUrl: siteUrlFrom(matches),
  });

export default function Home() {
  const { lead, latest, popular, bigIdeas, issue, topics } = useLoaderData<typeof loader>();
  const root = useRootData();
  return (
    <>
      <h1 className="visually-hidden">{SITE_NAME}: ideas and advice for leaders</h1>
      {root?.user ? null : (
        <div className={css.intro}>
          <HelpBox id="sign-in-benefits" />
        </div>
      )}
      <div className={css.top}>
        {lead ? (
          <section aria-labelledby="lead-heading" className={css.lead}>
            <h2 id="lead-heading" className="visually-hidden">
              Top story
            </h2>
            <ArticleCard card={lead} layout="stacked" headingLevel={3} largestImage />
          </section>
        ) : null}
        <section aria-labelledby="latest-heading">
          <h2 id="latest-heading" className={prose.sectionHeading}>
            The Latest
          </h2>
          <ol className={cards.list}>
            {latest.map((a) => (
              <li key={a.id}>
                <ArticleCard card={a} />
              </li>
            ))}
          </ol>
          <p>
            <Link to="/the-latest">More from The Latest</Link>
          </p>
        </section>
      </div>

      <CardGridSection id="popular-heading" title="Most Popular" items={popular} />
      <CardGridSection id="big-ideas-heading" title="Big Ideas" items={bigIdeas} />

      <div className={css.split}>
        {issue ? (
          <section aria-labelledby="issue-heading">
            <h2 id="issue-heading" className={prose.sectionHeading}>
              From the Magazine
            </h2>
            <IssueCard issue={issue} featuring={[]} />
            <p>
              <Link to="/magazine">Browse the archive since 1956</Link>
            </p>
          </section>
        ) : null}
        <section aria-labelledby="topics-heading">
          <h2 id="topics-heading" className={prose.sectionHeading}>
            Topics
          </h2>
          <ul className={css.topicList}>
            {topics.map((t) => (
              <li key={t.id}>
                <Link to={t.url}>{t.name}</Link>
              </li>
            ))}
          </ul>
          <p>
            <Link to="/topics">Find More</Link>
          </p>
          <p>
            <Link to="/hbr-analytic-services#browse-reports-filter">Browse research reports</Link>
          </p>
        </section>
      </div>
    </>
  );
}
