import type { PodcastEpisode } from "~/server/content/podcasts";
import { episodeCoverPath, podcastArtworkPath, podcastAudioPath, podcastFeedPath, podcastSeriesPath } from "~/shared/urls";
import { SITE_NAME } from "~/app/lib/forms/cross-site";

// schema.org descriptions of the pages that are not articles, products or videos (those routes
// describe themselves). Every address in them is absolute, on the site's configured origin.

const CONTEXT = "https://schema.org";
const publisher = (siteUrl: string) => ({ "@type": "Organization", name: SITE_NAME, url: `${siteUrl}/` });

/** The site, and how to search it (home). */
export function webSite(siteUrl: string) {
  return {
    "@context": CONTEXT,
    "@type": "WebSite",
    name: SITE_NAME,
    url: `${siteUrl}/`,
    publisher: publisher(siteUrl),
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${siteUrl}/search?q={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  };
}

interface Issue {
  code: string;
  year: number;
  month: number;
  title: string;
  summary: string;
  url: string;
  cover: string;
}

const periodical = (siteUrl: string) => ({ "@type": "Periodical", name: SITE_NAME, url: `${siteUrl}/magazine` });

function issueOf(siteUrl: string, issue: Issue) {
  return {
    "@type": "PublicationIssue",
    issueNumber: issue.code,
    name: issue.title,
    datePublished: `${issue.year}-${String(issue.month).padStart(2, "0")}`,
    url: `${siteUrl}${issue.url}`,
    image: `${siteUrl}${issue.cover}`,
  };
}

/** The magazine, with the issues of the year a page of its archive shows. */
export function magazine(siteUrl: string, firstYear: number, issues: Issue[]) {
  return {
    "@context": CONTEXT,
    ...periodical(siteUrl),
    startDate: String(firstYear),
    publisher: publisher(siteUrl),
    hasPart: issues.map((issue) => issueOf(siteUrl, issue)),
  };
}

/** One issue of the magazine, and the articles in it that the site has. */
export function magazineIssue(siteUrl: string, issue: Issue & { featuring: { title: string; url: string | null }[] }) {
  return {
    "@context": CONTEXT,
    ...issueOf(siteUrl, issue),
    description: issue.summary,
    isPartOf: periodical(siteUrl),
    hasPart: issue.featuring.flatMap((f) => (f.url ? [{ "@type": "Article", headline: f.title, url: `${siteUrl}${f.url}` }] : [])),
  };
}

interface Series {
  slug: string;
  title: string;
  description: string;
  hosts: string[];
}

const seriesOf = (siteUrl: string, series: Pick<Series, "slug" | "title">) => ({
  "@type": "PodcastSeries",
  name: series.title,
  url: `${siteUrl}${podcastSeriesPath(series.slug)}`,
});

/** A podcast show, its feed and its hosts. */
export function podcastSeries(siteUrl: string, series: Series) {
  return {
    "@context": CONTEXT,
    ...seriesOf(siteUrl, series),
    description: series.description,
    webFeed: `${siteUrl}${podcastFeedPath(series.slug)}`,
    image: `${siteUrl}${podcastArtworkPath(series.slug)}`,
    author: series.hosts.map((name) => ({ "@type": "Person", name })),
    publisher: publisher(siteUrl),
    inLanguage: "en-US",
  };
}

type Episode = Omit<PodcastEpisode, "episodeType">;

/** A podcast episode: its audio, its place in its show, and its cover. */
export function podcastEpisode(siteUrl: string, series: Pick<Series, "slug" | "title">, episode: Episode, serial: boolean) {
  const duration = `PT${episode.durationSeconds}S`;
  return {
    "@context": CONTEXT,
    "@type": "PodcastEpisode",
    name: episode.title,
    description: episode.description,
    url: `${siteUrl}${episode.url}`,
    datePublished: episode.published,
    episodeNumber: episode.episode,
    duration,
    image: `${siteUrl}${episodeCoverPath(episode.id, "png")}`,
    isAccessibleForFree: true,
    associatedMedia: {
      "@type": "AudioObject",
      contentUrl: `${siteUrl}${podcastAudioPath(episode.id)}`,
      encodingFormat: "audio/mpeg",
      duration,
    },
    partOfSeries: seriesOf(siteUrl, series),
    ...(serial ? { partOfSeason: { "@type": "PodcastSeason", seasonNumber: episode.season } } : {}),
  };
}
