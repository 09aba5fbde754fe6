import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { podcastSeriesList } from "~/server/content/podcasts";
import { podcastCoverPath, podcastFeedPath, podcastSeriesPath } from "~/shared/urls";
import * as cards from "~/app/components/cards.css";
import * as css from "~/app/components/podcast.css";
import { db } from "~/app/lib/context/db.server";
import { formatAuthors } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";

export async function loader() {
  return { series: await podcastSeriesList(await db()) };
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  seo({
    title: "Podcasts",
    description:
      "Meridian Review's podcasts: narrated series and conversations with managers and researchers, to play here or follow in any podcast app.",
    path: "/podcasts",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("podcasts"),
  });

export default function Podcasts() {
  const { series } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Podcasts</h1>
      <ul className={css.episodes}>
        {series.map((s) => (
          <li key={s.slug}>
            <article className={css.header} aria-labelledby={`series-${s.slug}`}>
              <img className={css.cover} src={podcastCoverPath(s.slug)} width={600} height={600} alt="" />
              <div>
                <h2 id={`series-${s.slug}`} className={css.episodeTitle}>
                  <Link to={podcastSeriesPath(s.slug)} className={cards.cardTitleLink}>
                    {s.title}
                  </Link>
                </h2>
                <p className={css.hosts}>
                  Hosted by {formatAuthors(s.hosts.map((name) => ({ name })))} · {s.episodeCount} episodes
                </p>
                <p>{s.description}</p>
                <p className={css.hosts}>
                  <a href={podcastFeedPath(s.slug)} type="application/rss+xml">
                    RSS feed<span className="visually-hidden"> of {s.title}</span>
                  </a>
                </p>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </>
  );
}
