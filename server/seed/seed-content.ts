import type { Insertable, Transaction } from "kysely";
import type { Database } from "~/server/db/connection";
import type { DB } from "~/server/db/schema";
import { archiveCalendar } from "~/server/content/archive-calendar";
import { bodyWordCount } from "~/server/content/markdown";
import { hashString, seededRandom } from "~/server/content/random";
import { topicSlug } from "~/shared/slugs";
import { rebuildSearchIndex } from "~/server/search/documents";
import { seedDate, type Era, type SeedContent } from "./content-source";

type Tx = Transaction<DB>;

const CHUNK = 200;

export async function insertChunked<T extends keyof DB & string>(tx: Tx | Database, table: T, rows: Insertable<DB[T]>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insertInto(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(i, i + CHUNK) as any)
      .execute();
  }
}

function requireId(map: Map<string, number>, key: string, what: string): number {
  const id = map.get(key);
  if (id === undefined) throw new Error(`Seed content refers to unknown ${what} "${key}"`);
  return id;
}

const flag = (b: boolean) => (b ? 1 : 0) as 0 | 1;

/** Loads the original seed content into an empty database, in one transaction; `now` is when it runs. */
export async function seedContent(tx: Tx, content: SeedContent, now: Date): Promise<{ articles: number; issues: number }> {
  const topicIds = new Map<string, number>();
  await insertChunked(
    tx,
    "topic",
    content.topics.map((t, i) => {
      topicIds.set(t.name, i + 1);
      return {
        id: i + 1,
        slug: topicSlug(t.name),
        name: t.name,
        description: t.description,
        subscriber_only: flag(t.subscriberOnly),
        executive_only: flag(t.executiveOnly),
        subject_id: t.subject === null ? null : requireId(topicIds, t.subject, "subject"),
      };
    }),
  );

  const authorIds = new Map<string, number>();
  await insertChunked(
    tx,
    "author",
    content.authors.map((a, i) => {
      authorIds.set(a.slug, i + 1);
      return { id: i + 1, slug: a.slug, name: a.name, role: a.role, bio: a.bio };
    }),
  );

  const seriesIds = new Map<string, number>();
  for (const a of content.articles) {
    if (a.series && !seriesIds.has(a.series)) {
      const id = seriesIds.size + 1;
      seriesIds.set(a.series, id);
      await tx.insertInto("series").values({ id, slug: a.series, title: a.seriesTitle! }).execute();
    }
  }

  const subjects = new Set(content.topics.filter((t) => t.subject === null).map((t) => t.name));
  const unfiled = content.articles.find((a) => !subjects.has(a.topics[0]!));
  if (unfiled) throw new Error(`Seed article ${unfiled.slug} must name a subject first, not "${unfiled.topics[0]}"`);

  const articles = [...content.articles].sort((a, b) => a.published.localeCompare(b.published) || a.slug.localeCompare(b.slug));
  const articleIds = new Map<string, number>();
  const articleRows: Insertable<DB["article_record"]>[] = [];
  const authorRows: Insertable<DB["article_author"]>[] = [];
  const topicRows: Insertable<DB["article_topic"]>[] = [];
  const streamRows: Insertable<DB["stream_entry"]>[] = [];
  articles.forEach((a, i) => {
    const id = i + 1;
    articleIds.set(a.slug, id);
    const [year, month] = a.published.split("-").map(Number) as [number, number];
    articleRows.push({
      id,
      slug: a.slug,
      year,
      month,
      title: a.title,
      dek: a.dek,
      sub_dek: a.subDek,
      summary: a.summary,
      body: a.body,
      content_type: a.contentType,
      published: a.published,
      tier: a.tier,
      primary_topic_id: requireId(topicIds, a.topics[0]!, "topic"),
      series_id: a.series ? seriesIds.get(a.series)! : null,
      series_part: a.seriesPart ?? null,
      word_count: bodyWordCount(a.body),
      status: a.status,
      publish_at: a.publishAt === undefined ? null : new Date(a.publishAt).toISOString(),
    });
    a.authors.forEach((slug, position) => authorRows.push({ article_id: id, author_id: requireId(authorIds, slug, "author"), position }));
    a.topics.forEach((name, position) =>
      topicRows.push({ article_id: id, topic_id: requireId(topicIds, name, "topic"), position, published: a.published }),
    );
    const streams = new Set<string>(a.streams);
    if (a.tier === "visual-library") streams.add("visual-library");
    for (const stream of streams) streamRows.push({ stream, article_id: id, published: a.published });
  });
  await insertChunked(tx, "article_record", articleRows);
  await insertChunked(tx, "article_author", authorRows);
  await insertChunked(tx, "article_topic", topicRows);
  await insertChunked(tx, "stream_entry", streamRows);

  const issues = await seedArchive(
    tx,
    content,
    articles.map((a) => ({ id: articleIds.get(a.slug)!, title: a.title, published: a.published })),
  );

  await seedStore(tx, content, topicIds, now);
  await seedMedia(tx, content, topicIds);

  for (const [index, list] of content.readingLists.entries()) {
    const listId = index + 1;
    await tx.insertInto("reading_list").values({ id: listId, slug: list.slug, name: list.name, description: list.description }).execute();
    const members = list.series
      ? articles.filter((a) => a.series === list.series).sort((a, b) => (a.seriesPart ?? 0) - (b.seriesPart ?? 0))
      : articles
          .filter((a) => a.topics.some((t) => list.topics!.includes(t)))
          .reverse()
          .slice(0, 6);
    for (const slug of list.alsoIncludes ?? []) {
      const article = articles.find((a) => a.slug === slug);
      if (!article) throw new Error(`Reading list ${list.slug} includes ${slug}, which is no article`);
      if (members.includes(article)) throw new Error(`Reading list ${list.slug} includes ${slug} twice`);
      members.push(article);
    }
    await insertChunked(
      tx,
      "reading_list_item",
      members.map((a, position) => ({ list_id: listId, article_id: articleIds.get(a.slug)!, position })),
    );
  }

  await rebuildSearchIndex(tx);
  return { articles: articleRows.length, issues };
}

/** How many of the newest cover stories of its time an issue's own is chosen from. */
const COVER_STORY_CHOICE = 6;

/**
 * An issue's cover story: one of the themes that had come up by the issue's year (`themes` in the
 * order they came up), among the most recent few, so that a year's issues differ and none is
 * ahead of its time.
 */
function coverStory(themes: SeedContent["magazine"]["themes"], year: number, issueIndex: number) {
  const current = themes.filter((t) => t.since <= year);
  const choice = (current.length > 0 ? current : themes).slice(-COVER_STORY_CHOICE);
  return choice[issueIndex % choice.length]!;
}

/** An issue draws its "Featuring" titles from at least this many of its time. */
const FEATURE_POOL_MIN = 15;

/**
 * The "Featuring" titles an issue of `year` may carry: its era's that had come up by then, and,
 * early in an era when those are few, the newest of the eras before.
 */
function featurePool(features: SeedContent["magazine"]["features"], era: Era, year: number): string[] {
  const current = features.filter((f) => f.era === era && f.since <= year);
  if (current.length >= FEATURE_POOL_MIN) return current.map((f) => f.title);
  const earlier = features.filter((f) => f.era !== era && f.since <= year).sort((a, b) => b.since - a.since);
  return [...current, ...earlier.slice(0, FEATURE_POOL_MIN - current.length)].map((f) => f.title);
}

function eraOf(year: number): Era {
  return year < 1980 ? "1956-1979" : year < 2000 ? "1980-1999" : "2000-2025";
}

async function seedArchive(tx: Tx, content: SeedContent, articles: { id: number; title: string; published: string }[]): Promise<number> {
  const slots = archiveCalendar();
  const issueRows: Insertable<DB["magazine_issue"]>[] = [];
  const featureRows: Insertable<DB["issue_feature"]>[] = [];
  const themes = [...content.magazine.themes].sort((a, b) => a.since - b.since);

  slots.forEach((slot, i) => {
    const id = i + 1;
    const era = eraOf(slot.year);
    const random = seededRandom(hashString(slot.code));
    const theme = coverStory(themes, slot.year, i);
    issueRows.push({
      id,
      code: slot.code,
      year: slot.year,
      month: slot.month,
      month_label: slot.monthLabel,
      title: theme.title,
      summary: theme.summary,
    });

    const monthsCovered = slot.monthLabel.split("–").length;
    const inIssue = articles.filter((a) => {
      const [y, m] = a.published.split("-").map(Number) as [number, number];
      return y === slot.year && m >= slot.month && m < slot.month + monthsCovered;
    });
    const pool = featurePool(content.magazine.features, era, slot.year);
    const titles = new Set<string>();
    while (titles.size < 5 - Math.min(inIssue.length, 5) && titles.size < pool.length) {
      titles.add(pool[Math.floor(random() * pool.length)]!);
    }
    let position = 0;
    for (const a of inIssue.slice(0, 5)) featureRows.push({ issue_id: id, position: position++, title: a.title, article_id: a.id });
    for (const title of titles) featureRows.push({ issue_id: id, position: position++, title, article_id: null });
  });
  await insertChunked(tx, "magazine_issue", issueRows);
  await insertChunked(tx, "issue_feature", featureRows);
  return issueRows.length;
}

async function seedStore(tx: Tx, content: SeedContent, topicIds: Map<string, number>, now: Date): Promise<void> {
  let availabilityId = 1001;
  const products: Insertable<DB["product"]>[] = [];
  const availabilities: Insertable<DB["product_availability"]>[] = [];
  content.store.products.forEach((p, i) => {
    const id = i + 1;
    products.push({
      id,
      slug: p.slug,
      title: p.title,
      product_type: p.productType,
      topic_id: requireId(topicIds, p.topic, "topic"),
      authors: p.authors.join(", "),
      summary: p.summary,
      description: p.description,
      published: seedDate(p.published, now),
      pages: p.pages,
    });
    for (const a of p.availabilities) {
      availabilities.push({
        id: availabilityId++,
        product_id: id,
        format: a.format,
        code: a.code,
        language: a.language,
        list_price_cents: Math.round(a.listPrice * 100),
        line_type: a.lineType,
        status: a.status,
        available_date: a.availableDate === undefined ? null : seedDate(a.availableDate, now),
        permissions_available: flag(a.permissionsAvailable),
        volume_pricing: flag(a.volumePricing),
      });
    }
  });
  await insertChunked(tx, "product", products);
  await insertChunked(tx, "product_availability", availabilities);
}

async function seedMedia(tx: Tx, content: SeedContent, topicIds: Map<string, number>): Promise<void> {
  const { media } = content;
  const videoIds = new Map<string, number>();
  await insertChunked(
    tx,
    "video",
    media.videos.map((v, i) => {
      const id = 6_300_001 + i * 17;
      videoIds.set(v.slug, id);
      return {
        id,
        slug: v.slug,
        title: v.title,
        description: v.description,
        duration_seconds: v.durationSeconds,
        published: v.published,
        topic_id: requireId(topicIds, v.topic, "topic"),
        tags: JSON.stringify(v.tags),
        subscriber_only: flag(v.subscriberOnly),
      };
    }),
  );
  for (const [i, p] of media.playlists.entries()) {
    await tx
      .insertInto("playlist")
      .values({ id: i + 1, slug: p.slug, name: p.name })
      .execute();
    await insertChunked(
      tx,
      "playlist_video",
      p.videos.map((slug, position) => ({ playlist_id: i + 1, video_id: requireId(videoIds, slug, "video"), position })),
    );
  }
  let episodeId = 1;
  for (const [i, series] of media.podcasts.entries()) {
    await tx
      .insertInto("podcast_series")
      .values({
        id: i + 1,
        slug: series.slug,
        title: series.title,
        description: series.description,
        feed_type: series.feedType,
        hosts: series.hosts.join(", "),
      })
      .execute();
    await insertChunked(
      tx,
      "podcast_episode",
      series.episodes.map((e) => ({
        id: episodeId++,
        series_id: i + 1,
        title: e.title,
        description: e.description,
        pub_date: e.pubDate,
        season: e.season,
        episode: e.episode,
        episode_type: e.episodeType,
        duration_seconds: e.durationSeconds,
      })),
    );
  }
  await insertChunked(
    tx,
    "newsletter",
    media.newsletters.map((n, i) => ({
      id: i + 1,
      slug: n.slug,
      name: n.name,
      frequency: n.frequency,
      description: n.description,
      subscriber_only: flag(n.subscriberOnly),
    })),
  );
  await insertChunked(
    tx,
    "marketing_campaign",
    media.marketingCampaigns.map((c) => ({ id: c.id, name: c.name, description: c.description })),
  );
}
