import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { podcastEpisodePage } from "~/server/content/podcasts";
import { PODCAST_COVER_SIZE } from "~/shared/art-sizes";
import { socialCard } from "~/shared/social-cards";
import { episodeCoverPath, podcastFeedPath, podcastSeriesPath } from "~/shared/urls";
import { JsonLd } from "~/app/components/JsonLd";
import { EpisodeAudio, EpisodeMeta } from "~/app/components/PodcastEpisode";
import { ShareLinks } from "~/app/components/ShareLinks";
import * as layout from "~/app/components/article.css";
import * as cards from "~/app/components/cards.css";
import * as css from "~/app/components/podcast.css";
import * as stream from "~/app/components/stream.css";
import { config, db } from "~/app/lib/context/db.server";
import { formatAuthors } from "~/app/lib/content/format";
import { redirect } from "~/app/lib/http/responses.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";

/**
 * A podcast episode's own page (/podcasts/{show}/{id}-{title}): the address it is shared, saved
 * and found by, and the feed's link for it. Only the id finds the episode; any other show or
 * title words in the address move to the episode's own.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = /^(\d{1,9})(-[a-z0-9-]*)?$/.exec(params.episode ?? "")?.[1];
  const page = id ? await podcastEpisodePage(await db(), Number(id)) : undefined;
  if (!page) throw new Response(null, { status: 404 });
  if (`/podcasts/${params.slug}/${params.episode}` !== page.episode.url) throw redirect(page.episode.url, 301);
  return { ...page, siteUrl: config().siteUrl };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "Episode not found" }];
  const { series, episode } = data;
  return [
    ...seo({
      title: `${episode.title} (${series.title})`,
      description: episode.description,
      path: episode.url,
      siteUrl: siteUrlFrom(matches),
      card: socialCard("episode", episode.id, episode.title),
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${series.title} (RSS)`, href: podcastFeedPath(series.slug) },
  ];
};

export default function PodcastEpisodePage() {
  const { series, episode, previous, next, siteUrl } = useLoaderData<typeof loader>();
  const serial = series.feedType === "serial";
  return (
    <article aria-labelledby="episode-title">
      <JsonLd data={schema.podcastEpisode(siteUrl, series, episode, serial)} />
      <header className={css.header}>
        <img className={css.cover} src={episodeCoverPath(episode.id, "svg")} {...PODCAST_COVER_SIZE} alt="" />
        <div>
          <p className={stream.count}>
            <Link to="/podcasts">Podcasts</Link> · <Link to={podcastSeriesPath(series.slug)}>{series.title}</Link>
          </p>
          <h1 id="episode-title">{episode.title}</h1>
          <EpisodeMeta episode={episode} serial={serial} />
          <p className={css.hosts}>Hosted by {formatAuthors(series.hosts.map((name) => ({ name })))}</p>
        </div>
      </header>
      <div className={layout.layout}>
        <div>
          <EpisodeAudio episode={episode} seriesTitle={series.title} siteUrl={siteUrl} />
          <p>{episode.description}</p>
          <ShareLinks
            type="podcast"
            id={episode.id}
            url={`${siteUrl}${episode.url}`}
            title={`${series.title}: ${episode.title}`}
            heading="Share this episode"
          />
        </div>
        <nav aria-labelledby="more-episodes" className={layout.asideBlock}>
          <h2 id="more-episodes" className={cards.eyebrow}>
            More from {series.title}
          </h2>
          <ul className={layout.asideList}>
            {previous ? (
              <li>
                Previous episode:{" "}
                <Link to={previous.url} rel="prev">
                  {previous.title}
                </Link>
              </li>
            ) : null}
            {next ? (
              <li>
                Next episode:{" "}
                <Link to={next.url} rel="next">
                  {next.title}
                </Link>
              </li>
            ) : null}
            <li>
              <Link to={podcastSeriesPath(series.slug)}>All {series.episodeCount} episodes</Link>
            </li>
            <li>
              <a href={podcastFeedPath(series.slug)} type="application/rss+xml">
                Follow the show in your podcast app (RSS feed)
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </article>
  );
}
