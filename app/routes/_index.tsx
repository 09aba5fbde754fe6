import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { homePage } from "~/server/content/home";
import { ArticleCard } from "~/app/components/ArticleCard";
import { HelpBox } from "~/app/components/HelpBox";
import { IssueCard } from "~/app/components/IssueCard";
import { VideoCard } from "~/app/components/VideoCard";
import * as css from "~/app/components/home.css";
import * as prose from "~/app/components/prose.css";
import { config, db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";
import { JsonLd } from "~/app/components/JsonLd";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { formatAuthors } from "~/app/lib/content/format";
import { podcastCoverPath, podcastSeriesPath } from "~/shared/urls";
import { useRootData } from "~/app/lib/http/root-data";

export async function loader() {
  return { ...(await homePage(await db())), siteUrl: config().siteUrl };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: SITE_NAME,
    description: "Ideas and advice for leaders: management research, case studies, data and the magazine archive since 1956.",
    path: "/",
    siteUrl: siteUrlFrom(matches),
  });

export default function Home() {
  const { lead, secondary, latest, popular, bigIdeas, videos, podcasts, newsletters, issue, subjects, siteUrl } =
    useLoaderData<typeof loader>();
  const root = useRootData();
  return (
    <>
      <JsonLd data={schema.webSite(siteUrl)} />
      <h1 className="visually-hidden">{SITE_NAME}: ideas and advice for leaders</h1>
      <div className={css.top}>
        {lead ? (
          <section aria-labelledby="lead-heading" className={css.leadPackage}>
            <h2 id="lead-heading" className="visually-hidden">
              Top stories
            </h2>
            <div className={css.lead}>
              <ArticleCard card={lead} layout="stacked" headingLevel={3} largestImage />
            </div>
            <ul className={css.secondary}>
              {secondary.map((a) => (
                <li key={a.id}>
                  <ArticleCard card={a} layout="stacked" />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section aria-labelledby="latest-heading" className={css.latest}>
          <h2 id="latest-heading" className={prose.sectionHeading}>
            The Latest
          </h2>
          <ol className={css.headlines}>
            {latest.map((a) => (
              <li key={a.id}>
                <ArticleCard card={a} layout="headline" />
              </li>
            ))}
          </ol>
          <p>
            <Link to="/the-latest">More from The Latest</Link>
          </p>
        </section>
      </div>

      {root?.user ? null : (
        <div className={css.intro}>
          <HelpBox id="sign-in-benefits" headline="Get more from Meridian Review">
            A free account lets you read more articles each month, save them to your library and follow topics.{" "}
            <Link to="/register">Create a free account</Link>.
          </HelpBox>
        </div>
      )}
      {popular.length > 0 ? (
        <section aria-labelledby="popular-heading">
          <h2 id="popular-heading" className={prose.sectionHeading}>
            Most Popular
          </h2>
          <ol className={css.ranked}>
            {popular.map((a, i) => (
              <li key={a.id} className={css.rankedItem}>
                <span className={css.rank} aria-hidden="true">
                  {i + 1}
                </span>
                <ArticleCard card={a} layout="headline" />
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      <HomeSection id="big-ideas-heading" title="Big Ideas" more={{ to: "/big-ideas", label: "More Big Ideas" }} count={bigIdeas.length}>
        {bigIdeas.map((a) => (
          <li key={a.id}>
            <ArticleCard card={a} layout="stacked" />
          </li>
        ))}
      </HomeSection>

      <HomeSection id="video-heading" title="Video" more={{ to: "/video", label: "More videos" }} count={videos.length}>
        {videos.map((v) => (
          <li key={v.id}>
            <VideoCard card={v} />
          </li>
        ))}
      </HomeSection>

      <div className={css.trio}>
        {podcasts.length > 0 ? (
          <section aria-labelledby="podcasts-heading">
            <h2 id="podcasts-heading" className={prose.sectionHeading}>
              Podcasts
            </h2>
            <ul className={css.shows}>
              {podcasts.map((p) => (
                <li key={p.slug} className={css.show}>
                  <img className={css.showCover} src={podcastCoverPath(p.slug)} width={88} height={88} alt="" loading="lazy" />
                  <div>
                    <h3 className={css.smallTitle}>
                      <Link to={podcastSeriesPath(p.slug)}>{p.title}</Link>
                    </h3>
                    <p className={css.note}>
                      {formatAuthors(p.hosts.map((name) => ({ name })))} · {p.episodeCount} episodes
                    </p>
                  </div>
                </li>
              ))}
            </ul>
            <p>
              <Link to="/podcasts">All podcasts</Link>
            </p>
          </section>
        ) : null}
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
        {newsletters.length > 0 ? (
          <section aria-labelledby="newsletters-heading">
            <h2 id="newsletters-heading" className={prose.sectionHeading}>
              Newsletters
            </h2>
            <ul className={css.newsletterList}>
              {newsletters.map((n) => (
                <li key={n.slug}>
                  <h3 className={css.smallTitle}>{n.name}</h3>
                  <p className={css.note}>{n.frequency}</p>
                </li>
              ))}
            </ul>
            <p>
              <Link to="/email-newsletters" className={css.signUp}>
                Sign up for newsletters
              </Link>
            </p>
          </section>
        ) : null}
      </div>

      <section aria-labelledby="topics-heading">
        <h2 id="topics-heading" className={prose.sectionHeading}>
          Topics
        </h2>
        <ul className={css.topicList}>
          {subjects.map((t) => (
            <li key={t.id}>
              <Link to={t.url}>{t.name}</Link>
            </li>
          ))}
        </ul>
        <p>
          <Link to="/topics">Find More</Link> · <Link to="/hbr-analytic-services#browse-reports-filter">Browse research reports</Link>
        </p>
      </section>
    </>
  );
}

/** A titled row of cards that fill it, whatever their number, and a link to the rest. */
function HomeSection({
  id,
  title,
  more,
  count,
  children,
}: {
  id: string;
  title: string;
  more: { to: string; label: string };
  count: number;
  children: ReactNode;
}) {
  if (count === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={prose.sectionHeading}>
        {title}
      </h2>
      <ul className={css.row} data-cards={count}>
        {children}
      </ul>
      <p>
        <Link to={more.to}>{more.label}</Link>
      </p>
    </section>
  );
}
