import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { podcastSeries, type PodcastEpisode } from "~/server/content/podcasts";
import { PODCAST_PAGE_SIZE } from "~/shared/pagination";
import { socialCard } from "~/shared/social-cards";
import { podcastCoverPath, podcastFeedPath } from "~/shared/urls";
import * as chips from "~/app/components/chips.css";
import { JsonLd } from "~/app/components/JsonLd";
import { EpisodeAudio, EpisodeMeta } from "~/app/components/PodcastEpisode";
import * as cards from "~/app/components/cards.css";
import * as css from "~/app/components/podcast.css";
import * as stream from "~/app/components/stream.css";
import { useHydrated } from "~/app/components/useHydrated";
import { config, db } from "~/app/lib/context/db.server";
import { formatAuthors } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import * as schema from "~/app/lib/content/structured-data";

/**
 * A podcast series (spec 2): its episodes in tabs, by season for a serial show or by year for
 * an episodic one, five at first and "Load more items" adding five. Tabs and loading are links
 * (?tab=, ?loaded=) that the server renders whole; with JS the router fetches them in place.
 * ?episode={id} opens that episode's tab with enough loaded to show it (an episode's address
 * before it had a page of its own). Each episode's title links to its own page.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const series = /^[a-z0-9-]{1,120}$/.test(slug) ? await podcastSeries(await db(), slug) : undefined;
  if (!series) throw new Response(null, { status: 404 });
  const search = new URL(request.url).searchParams;
  const wanted = Number(search.get("episode"));
  const holding = series.tabs.find((t) => t.episodes.some((e) => e.id === wanted));
  const tab = holding ?? series.tabs.find((t) => t.key === search.get("tab")) ?? series.tabs[0];
  const pages = Math.max(1, Math.ceil((tab?.episodes.length ?? 0) / PODCAST_PAGE_SIZE));
  const asked = Number(search.get("loaded"));
  let loaded = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  if (holding) loaded = Math.max(loaded, Math.ceil((holding.episodes.findIndex((e) => e.id === wanted) + 1) / PODCAST_PAGE_SIZE));
  return {
    series: {
      slug: series.slug,
      title: series.title,
      description: series.description,
      hosts: series.hosts,
      episodeCount: series.episodeCount,
      serial: series.feedType === "serial",
    },
    tabs: series.tabs.map((t) => ({ key: t.key, label: t.label, count: t.episodes.length })),
    active: tab?.key ?? null,
    episodes: tab?.episodes.slice(0, loaded * PODCAST_PAGE_SIZE) ?? [],
    loaded,
    more: loaded < pages,
    siteUrl: config().siteUrl,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "Podcast not found" }];
  const { series } = data;
  return [
    ...seo({
      title: series.title,
      description: series.description.length > 200 ? `${series.description.slice(0, 197).trimEnd()}…` : series.description,
      path: `/podcasts/${series.slug}`,
      siteUrl: siteUrlFrom(matches),
      card: socialCard("podcast", series.slug, series.title),
    }),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: `${series.title} (RSS)`, href: podcastFeedPath(series.slug) },
  ];
};

const tabHref = (key: string, loaded = 1) => `?${new URLSearchParams({ tab: key, ...(loaded > 1 ? { loaded: String(loaded) } : {}) })}`;

export default function PodcastSeriesPage() {
  const { series, tabs, active, episodes, loaded, more, siteUrl } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const shown = useRef({ active, loaded });

  // After "Load more items" in place, focus moves to the first new episode.
  useEffect(() => {
    if (active === shown.current.active && loaded > shown.current.loaded) {
      document.getElementById(`episode-${episodes[shown.current.loaded * PODCAST_PAGE_SIZE]?.id}`)?.focus();
    }
    shown.current = { active, loaded };
  }, [active, loaded, episodes]);

  return (
    <article aria-labelledby="podcast-title">
      <JsonLd data={schema.podcastSeries(siteUrl, series)} />
      <header className={css.header}>
        <img className={css.cover} src={podcastCoverPath(series.slug)} width={600} height={600} alt="" />
        <div>
          <p className={stream.count}>
            <Link to="/podcasts">Podcasts</Link> · {series.episodeCount} episodes
          </p>
          <h1 id="podcast-title">{series.title}</h1>
          <p className={css.hosts}>Hosted by {formatAuthors(series.hosts.map((name) => ({ name })))}</p>
          <p>{series.description}</p>
          <p className={css.hosts}>
            <a href={podcastFeedPath(series.slug)} type="application/rss+xml">
              Follow the show in your podcast app (RSS feed)
            </a>
          </p>
        </div>
      </header>

      {tabs.length > 1 ? (
        <nav aria-label={series.serial ? "Seasons" : "Years"}>
          <ul className={chips.tabList}>
            {tabs.map((t) => (
              <li key={t.key}>
                <Link
                  className={chips.tab}
                  to={tabHref(t.key)}
                  aria-current={t.key === active ? "page" : undefined}
                  preventScrollReset
                  replace
                >
                  {t.label} <span className="visually-hidden">({t.count} episodes)</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      {episodes.length === 0 ? (
        <p>No episodes have been published yet.</p>
      ) : (
        <ol className={css.episodes} aria-busy={navigation.state === "loading" ? true : undefined}>
          {episodes.map((episode) => (
            <li key={episode.id}>
              <Episode episode={episode} serial={series.serial} seriesTitle={series.title} siteUrl={siteUrl} />
            </li>
          ))}
        </ol>
      )}
      {more && active ? (
        <p>
          <Link className={stream.loadMore} to={tabHref(active, loaded + 1)} preventScrollReset replace rel="nofollow">
            Load more items
          </Link>
        </p>
      ) : null}
    </article>
  );
}

function Episode({
  episode,
  serial,
  seriesTitle,
  siteUrl,
}: {
  episode: PodcastEpisode;
  serial: boolean;
  seriesTitle: string;
  siteUrl: string;
}) {
  const titleId = `episode-${episode.id}-title`;
  return (
    <article id={`episode-${episode.id}`} className={css.episode} aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId} className={css.episodeTitle}>
        <Link to={episode.url} className={cards.cardTitleLink}>
          {episode.title}
        </Link>
      </h2>
      <EpisodeMeta episode={episode} serial={serial} />
      <Description text={episode.description} />
      <EpisodeAudio episode={episode} seriesTitle={seriesTitle} siteUrl={siteUrl} />
    </article>
  );
}

/** Spec 9: the description folds after four lines behind "Read More"; without JS it is shown whole. */
function Description({ text }: { text: string }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const folded = hydrated && !open;
  return (
    <>
      <p className={folded ? css.clamped : undefined}>{text}</p>
      {hydrated ? (
        <button type="button" className={css.readMore} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "Read Less" : "Read More"}
        </button>
      ) : null}
    </>
  );
}
