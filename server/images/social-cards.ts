import { CHART_SIZE, ISSUE_COVER_SIZE, PODCAST_COVER_SIZE, PRODUCT_COVER_SIZE, VIDEO_POSTER_SIZE } from "~/shared/art-sizes";
import { isPageCardName, PAGE_CARD_TITLES, type PageCardName } from "~/shared/page-cards";
import { HOME_LINE, type SocialCardKind } from "~/shared/social-cards";
import { issueByCode } from "~/server/content/archive";
import { episodeCover, issueCover, pictureCard, podcastCover, productCover, socialCard, socialCardPng, videoPoster } from "./art";
import { chartSvgOf } from "./charts";
import { articleArtSubject } from "./illustration";
import type { Database } from "~/server/db/connection";
import { podcastEpisodePage } from "~/server/content/podcasts";
import { productBySlug } from "~/server/store/catalogue";
import { STREAM_PAGES } from "~/server/content/streams";
import { topicBySlug } from "~/server/content/topics";
import { videoPosterSource } from "~/server/content/videos";
import { issueCodeOfArtKey } from "~/shared/urls";

// What each kind of page's social card shows, looked up by the key in its address
// (shared/social-cards.ts). An unknown key has no card: its address answers 404.

const SLUG = /^[a-z0-9-]{1,120}$/;

async function articleCard(db: Database, slug: string): Promise<string | undefined> {
  const article = await db
    .selectFrom("article")
    .innerJoin("topic", "topic.id", "article.primary_topic_id")
    .select(["article.title", "article.tier", "topic.name as topic"])
    .where("article.slug", "=", slug)
    .executeTakeFirst();
  if (!article) return undefined;
  // A visual-library article leads with its chart, so its card shows the chart.
  const chart = article.tier === "visual-library" ? chartSvgOf(slug) : undefined;
  return socialCard({
    key: slug,
    art: await articleArtSubject(db, slug),
    kicker: article.topic,
    title: article.title,
    picture: chart ? { svg: chart, ...CHART_SIZE } : undefined,
  });
}

async function episodeCard(db: Database, key: string): Promise<string | undefined> {
  const page = /^\d{1,9}$/.test(key) ? await podcastEpisodePage(db, Number(key)) : undefined;
  if (!page) return undefined;
  const { series, episode } = page;
  return socialCard({
    key: series.slug,
    kicker: series.title,
    title: episode.title,
    picture: { svg: episodeCover({ ...series, serial: series.feedType === "serial" }, episode), ...PODCAST_COVER_SIZE },
  });
}

/** What each page that is not content holds, in a line under its title on its card. */
const PAGE_CARD_LINES: Record<PageCardName, string> = {
  home: HOME_LINE,
  topics: "Every subject we cover, from strategy and innovation to managing yourself",
  magazine: "Every issue since 1956, with its covers and features",
  video: "Managers and researchers on strategy, operations, finance and leadership",
  podcasts: "Narrated series and conversations, to play here or in any podcast app",
  store: "Books, case studies, reprints, toolkits and magazine issues",
  subscriptions: "Every article, video and podcast, and the archive since 1956",
  "reading-lists": "Articles our editors put together to read in order",
  "email-newsletters": "What each one covers and how often it arrives",
  "privacy-policy": "What we record about readers, why, and for how long",
  "subscriber-help": "Your account and subscription, and how to reach Customer Service",
};

const CARDS: Record<SocialCardKind, (db: Database, key: string) => Promise<string | undefined>> = {
  page: async (_, name) =>
    isPageCardName(name) ? socialCard({ key: name, title: PAGE_CARD_TITLES[name], line: PAGE_CARD_LINES[name] }) : undefined,
  stream: async (_, slug) => {
    const stream = Object.hasOwn(STREAM_PAGES, slug) ? STREAM_PAGES[slug] : undefined;
    return stream && socialCard({ key: slug, title: stream.title, line: stream.description });
  },
  topic: async (db, slug) => {
    const topic = SLUG.test(slug) ? await topicBySlug(db, slug) : undefined;
    return topic && socialCard({ key: slug, kicker: "Topic", title: topic.name });
  },
  article: (db, slug) => (SLUG.test(slug) ? articleCard(db, slug) : Promise.resolve(undefined)),
  "reading-list": async (db, slug) => {
    const list = SLUG.test(slug)
      ? await db.selectFrom("reading_list").select(["name", "description"]).where("slug", "=", slug).executeTakeFirst()
      : undefined;
    return list && socialCard({ key: slug, kicker: "Reading list", title: list.name, line: list.description });
  },
  issue: async (db, key) => {
    const code = issueCodeOfArtKey(key);
    const issue = code ? await issueByCode(db, code) : undefined;
    return (
      issue &&
      socialCard({
        key: code!,
        kicker: `${issue.monthLabel} ${issue.year} issue`,
        title: issue.title,
        picture: { svg: issueCover(issue), ...ISSUE_COVER_SIZE },
      })
    );
  },
  product: async (db, slug) => {
    const product = SLUG.test(slug) ? await productBySlug(db, slug) : undefined;
    return (
      product &&
      socialCard({
        key: slug,
        kicker: product.productType,
        title: product.title,
        picture: { svg: productCover(product), ...PRODUCT_COVER_SIZE },
      })
    );
  },
  // A video's poster already is its title card.
  video: async (db, slug) => {
    const video = SLUG.test(slug) ? await videoPosterSource(db, slug) : undefined;
    return video && pictureCard({ svg: videoPoster(video), ...VIDEO_POSTER_SIZE });
  },
  podcast: async (db, slug) => {
    const series = SLUG.test(slug)
      ? await db.selectFrom("podcast_series").select(["slug", "title"]).where("slug", "=", slug).executeTakeFirst()
      : undefined;
    return (
      series &&
      socialCard({ key: slug, kicker: "Podcast", title: series.title, picture: { svg: podcastCover(series), ...PODCAST_COVER_SIZE } })
    );
  },
  episode: episodeCard,
};

/** The card of a page as a 1200 × 630 PNG; undefined when no page of that kind has that key. */
export async function socialCardFor(db: Database, kind: SocialCardKind, key: string): Promise<Buffer | undefined> {
  const svg = await CARDS[kind](db, key);
  return svg === undefined ? undefined : socialCardPng(svg);
}
