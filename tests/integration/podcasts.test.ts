import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { PNG_RGB, pngHeader } from "~/tests/helpers/png";
import { jsonLdOfType, structuredDataProblems } from "~/tests/helpers/structured-data";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// The podcast pages against the production build: series tabs and loading without JS, the
// episodes' audio, the podcast feed, and saving and sharing an episode.

interface SeedEpisode {
  title: string;
  pubDate: string;
  season: number;
  episode: number;
  episodeType: string;
  durationSeconds: number;
}
interface SeedSeries {
  slug: string;
  title: string;
  feedType: "serial" | "episodic";
  episodes: SeedEpisode[];
}
const media = JSON.parse(fs.readFileSync(path.resolve("content/media.json"), "utf8")) as { podcasts: SeedSeries[] };
const serial = media.podcasts.find((s) => s.feedType === "serial")!;
const episodic = media.podcasts.find((s) => s.feedType === "episodic")!;

let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const guest = () => new Reader(server.url);
const titles = ($: cheerio.CheerioAPI) =>
  $("main ol h2")
    .map((_, h) => $(h).text())
    .get();
const tabs = ($: cheerio.CheerioAPI) =>
  $("main nav li a")
    .map((_, a) => ({
      label: $(a)
        .text()
        .replace(/\s*\(\d+ episodes\)$/, ""),
      current: $(a).attr("aria-current") === "page",
    }))
    .get();

describe("a series page", () => {
  it("lists a serial show by season, oldest first, five at a time, with Load more items as a link", async () => {
    const seasons = [...new Set(serial.episodes.map((e) => e.season))].sort((a, b) => a - b);
    const firstSeason = serial.episodes.filter((e) => e.season === seasons[0]).sort((a, b) => a.episode - b.episode);
    expect(firstSeason.length).toBeGreaterThan(5);

    const $ = await guest().page(`/podcasts/${serial.slug}`);
    expect($("h1").text()).toBe(serial.title);
    expect(tabs($)).toEqual(seasons.map((s, i) => ({ label: `Season ${s}`, current: i === 0 })));
    expect(titles($)).toEqual(firstSeason.slice(0, 5).map((e) => e.title));
    const more = $("a:contains('Load more items')");
    expect(more.attr("href")).toBe(`/podcasts/${serial.slug}?tab=season-${seasons[0]}&loaded=2`);

    const $more = await guest().page(more.attr("href")!);
    expect(titles($more)).toEqual(firstSeason.slice(0, 10).map((e) => e.title));
    if (firstSeason.length <= 10) expect($more("a:contains('Load more items')")).toHaveLength(0);

    const second = await guest().page(`/podcasts/${serial.slug}?tab=season-${seasons[1]}`);
    expect(tabs(second).find((t) => t.current)?.label).toBe(`Season ${seasons[1]}`);
    expect(titles(second)[0]).toBe(serial.episodes.filter((e) => e.season === seasons[1]).sort((a, b) => a.episode - b.episode)[0]!.title);
  });

  it("lists an episodic show by year, newest first", async () => {
    const newest = [...episodic.episodes].sort((a, b) => b.pubDate.localeCompare(a.pubDate));
    const years = [...new Set(newest.map((e) => e.pubDate.slice(0, 4)))];
    const $ = await guest().page(`/podcasts/${episodic.slug}`);
    expect(tabs($).map((t) => t.label)).toEqual(years);
    expect(titles($)).toEqual(
      newest
        .filter((e) => e.pubDate.startsWith(years[0]!))
        .slice(0, 5)
        .map((e) => e.title),
    );
  });

  it("opens an episode's own link on its tab, loaded far enough to show it", async () => {
    const seasons = [...new Set(serial.episodes.map((e) => e.season))].sort((a, b) => a - b);
    const $first = await guest().page(`/podcasts/${serial.slug}?loaded=99`);
    const lastOfSeason = $first("main ol article").last();
    const id = lastOfSeason.attr("id")!.replace("episode-", "");
    const $ = await guest().page(`/podcasts/${serial.slug}?tab=season-${seasons[1]}&episode=${id}`);
    expect(tabs($).find((t) => t.current)?.label).toBe(`Season ${seasons[0]}`);
    expect($(`#episode-${id} h2`).text()).toBe(lastOfSeason.find("h2").text());
  });

  it("shows each episode's type, date and duration, its audio and a download, and the whole description without JS", async () => {
    const $ = await guest().page(`/podcasts/${serial.slug}`);
    const trailer = serial.episodes.find((e) => e.episodeType === "trailer")!;
    const card = $("main ol article").filter((_, a) => $(a).find("h2").text() === trailer.title);
    expect(card.find("p").first().text()).toContain(`Trailer · Season ${trailer.season}, Episode ${trailer.episode}`);
    // Spec §9: h:mm:ss, under an hour too (the seed's episodes are under a minute).
    expect(trailer.durationSeconds).toBeLessThan(60);
    expect(card.text()).toContain(` · 0:00:${String(trailer.durationSeconds).padStart(2, "0")}`);
    expect(card.find("button:contains('Read More')")).toHaveLength(0);
    const audio = card.find("audio").attr("src")!;
    expect(card.find("a[download]").attr("href")).toBe(audio);

    const whole = await fetch(server.url + audio);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 3).toString("latin1")).toBe("ID3");
    const part = await fetch(server.url + audio, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${bytes.length}`);
  });

  it("answers 404 for an unknown series, episode audio or cover, and ignores nonsense paging", async () => {
    for (const url of [
      "/podcasts/no-such-show",
      "/podcasts/Bad_Slug",
      "/media/podcast/999999.mp3",
      "/media/podcast/1.wav",
      "/art/podcast/no-such-show.svg",
      "/art/podcast/no-such-show.png",
      `/art/podcast/${serial.slug}.jpg`,
      "/podcasts/no-such-show/feed.xml",
    ]) {
      expect((await guest().request(url)).status, url).toBe(404);
    }
    for (const query of ["?loaded=-3", "?loaded=abc", "?loaded=99999999999", "?tab=season-42", "?episode=999999", "?tab=%00"]) {
      expect((await guest().request(`/podcasts/${serial.slug}${query}`)).status, query).toBe(200);
    }
  });
});

describe("an episode's own page", () => {
  /** The series page's episodes in the order it lists them, with their own pages. */
  const listed = async (slug: string) => {
    const $ = await guest().page(`/podcasts/${slug}?loaded=99`);
    return $("main ol article h2 a")
      .map((_, a) => ({ title: $(a).text(), href: $(a).attr("href")! }))
      .get();
  };

  it("is where the series page links each episode's title", async () => {
    const episodes = await listed(serial.slug);
    const firstSeason = serial.episodes.filter((e) => e.season === 1).sort((a, b) => a.episode - b.episode);
    expect(episodes.map((e) => e.title)).toEqual(firstSeason.map((e) => e.title));
    for (const e of episodes) expect(e.href, e.title).toMatch(new RegExp(`^/podcasts/${serial.slug}/\\d+-[a-z0-9-]+$`));
    expect(new Set(episodes.map((e) => e.href)).size).toBe(episodes.length);
  });

  it("plays the episode, shows its whole description, its show and its neighbours, and shares it, all without JS", async () => {
    const byDate = [...episodic.episodes].sort((a, b) => a.pubDate.localeCompare(b.pubDate));
    const middle = byDate[5]!;
    const $year = await guest().page(`/podcasts/${episodic.slug}?tab=${middle.pubDate.slice(0, 4)}&loaded=99`);
    const href = $year(`main h2 a`)
      .filter((_, a) => $year(a).text() === middle.title)
      .attr("href")!;
    const $ = await guest().page(href);
    const id = href.split("/").pop()!.split("-")[0];
    expect($("h1").text()).toBe(middle.title);
    expect($("link[rel=canonical]").attr("href")).toBe(server.url + href);
    expect($("main audio").attr("src")).toBe(`/media/podcast/${id}.mp3`);
    expect($("main a[download]").attr("href")).toBe(`/media/podcast/${id}.mp3`);
    expect(
      $("main a[href='/podcasts/" + episodic.slug + "']")
        .first()
        .text(),
    ).toBe(episodic.title);
    expect($("main button:contains('Read More')")).toHaveLength(0);
    const seed = media.podcasts.flatMap((s) => s.episodes).find((e) => e.title === middle.title) as SeedEpisode & { description: string };
    expect($("main p").filter((_, p) => $(p).text() === seed.description)).toHaveLength(1);
    expect($("main nav a[rel=prev]").text()).toBe(byDate[4]!.title);
    expect($("main nav a[rel=next]").text()).toBe(byDate[6]!.title);
    const facebook = $("main a:contains('Connect with Facebook')").attr("href")!;
    expect(new URL(facebook).searchParams.get("u")).toBe(server.url + href);
    expect($("main a:contains('E-mail')").attr("href")).toBe(`/share?type=podcast&id=${id}&tab=email`);
    expect($("link[rel=alternate][type='application/rss+xml']").attr("href")).toBe(`/podcasts/${episodic.slug}/feed.xml`);
  });

  it("describes the episode in JSON-LD as a PodcastEpisode of its show, with its audio and cover", async () => {
    const [first] = await listed(serial.slug);
    const $ = await guest().page(first!.href);
    const episode = jsonLdOfType($, "PodcastEpisode");
    expect(structuredDataProblems(episode, server.url)).toEqual([]);
    expect(episode).toMatchObject({
      name: first!.title,
      url: server.url + first!.href,
      partOfSeries: { "@type": "PodcastSeries", name: serial.title, url: `${server.url}/podcasts/${serial.slug}` },
      partOfSeason: { "@type": "PodcastSeason", seasonNumber: 1 },
    });
    const audio = await fetch((episode.associatedMedia as { contentUrl: string }).contentUrl);
    expect([audio.status, audio.headers.get("content-type")]).toEqual([200, "audio/mpeg"]);
    const cover = await fetch(episode.image as string);
    expect(pngHeader(Buffer.from(await cover.arrayBuffer())).colourType).toBe(PNG_RGB);

    const series = jsonLdOfType(await guest().page(`/podcasts/${serial.slug}`), "PodcastSeries");
    expect(structuredDataProblems(series, server.url)).toEqual([]);
    expect(series).toMatchObject({ name: serial.title, webFeed: `${server.url}/podcasts/${serial.slug}/feed.xml` });
  });

  it("moves an address with another show or other title words to the episode's own, and answers 404 for no episode", async () => {
    const [first] = await listed(serial.slug);
    const id = first!.href.split("/").pop()!.split("-")[0];
    for (const wrong of [
      `/podcasts/${serial.slug}/${id}`,
      `/podcasts/${serial.slug}/${id}-old-title`,
      `/podcasts/${episodic.slug}${first!.href.slice(first!.href.lastIndexOf("/"))}`,
    ]) {
      const res = await guest().request(wrong);
      expect([res.status, res.headers.get("location")], wrong).toEqual([301, first!.href]);
    }
    for (const missing of [
      `/podcasts/${serial.slug}/999999-x`,
      `/podcasts/${serial.slug}/episode-one`,
      `/podcasts/${serial.slug}/0x1`,
      `/podcasts/no-such-show/x`,
    ]) {
      expect((await guest().request(missing)).status, missing).toBe(404);
    }
    expect((await guest().request(`/podcasts/${serial.slug}/feed.xml`)).headers.get("content-type")).toContain("rss");
  });
});

describe("the podcast feed", () => {
  it("lists every episode with its audio enclosure, its size and the iTunes fields", async () => {
    const res = await fetch(`${server.url}/podcasts/${serial.slug}/feed.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("xml");
    const $ = cheerio.load(await res.text(), { xml: true });
    expect($("channel > title").first().text()).toBe(serial.title);
    expect($("channel > itunes\\:type").text()).toBe("serial");
    const items = $("item");
    expect(items).toHaveLength(serial.episodes.length);
    const first = items.first();
    const enclosure = first.find("enclosure");
    expect(enclosure.attr("type")).toBe("audio/mpeg");
    const audio = await fetch(enclosure.attr("url")!.replace(/^https?:\/\/[^/]+/, server.url));
    expect(Number(enclosure.attr("length"))).toBe((await audio.arrayBuffer()).byteLength);
    expect(Number(first.find("itunes\\:duration").text())).toBeGreaterThan(0);
    expect(first.find("itunes\\:season").text()).toMatch(/^\d+$/);
  });

  it("gives its show's cover as a square RGB PNG of 1,400 to 3,000 pixels, as Apple requires", async () => {
    const $ = cheerio.load(await (await fetch(`${server.url}/podcasts/${episodic.slug}/feed.xml`)).text(), { xml: true });
    const href = $("channel > itunes\\:image").attr("href")!;
    expect(href).toBe(`${server.url}/art/podcast/${episodic.slug}.png`);
    const res = await fetch(href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const svg = await fetch(`${server.url}/art/podcast/${episodic.slug}.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe(svg.headers.get("cache-control"));
    expect(res.headers.get("cache-control")).toBe("public, max-age=2592000");
    const { width, height, colourType } = pngHeader(Buffer.from(await res.arrayBuffer()));
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(1400);
    expect(width).toBeLessThanOrEqual(3000);
    // Apple refuses artwork with an alpha channel.
    expect(colourType).toBe(PNG_RGB);
    // Kept once drawn: asked again, the same file, with its tag for revalidation.
    const again = await fetch(href, { headers: { "If-None-Match": res.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
  });

  it("names its owner, and gives each episode its own page as its link and its own square RGB cover", async () => {
    const $ = cheerio.load(await (await fetch(`${server.url}/podcasts/${serial.slug}/feed.xml`)).text(), { xml: true });
    expect($("channel > itunes\\:owner > itunes\\:name").text()).toBe("Meridian Review");
    expect($("channel > itunes\\:owner > itunes\\:email").text()).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    const items = $("item").toArray();
    const covers = new Set<string>();
    for (const item of items) {
      const link = $(item).children("link").text();
      expect(link, $(item).children("title").text()).toMatch(new RegExp(`^${server.url}/podcasts/${serial.slug}/\\d+-[a-z0-9-]+$`));
      covers.add($(item).children("itunes\\:image").attr("href") ?? "");
    }
    expect(covers.size).toBe(items.length);
    const [first] = items;
    const $page = await guest().page(new URL($(first).children("link").text()).pathname);
    expect($page("h1").text()).toBe($(first).children("title").text());
    expect($page("link[rel=canonical]").attr("href")).toBe($(first).children("link").text());
    const cover = await fetch($(first).children("itunes\\:image").attr("href")!);
    expect(cover.headers.get("content-type")).toBe("image/png");
    const { width, height, colourType } = pngHeader(Buffer.from(await cover.arrayBuffer()));
    expect([width === height, width >= 1400 && width <= 3000, colourType]).toEqual([true, true, PNG_RGB]);
  });

  it("is linked from the series page for podcast apps to find", async () => {
    const $ = await guest().page(`/podcasts/${episodic.slug}`);
    expect($("link[rel=alternate][type='application/rss+xml']").attr("href")).toBe(`/podcasts/${episodic.slug}/feed.xml`);
  });
});

describe("saving and sharing an episode", () => {
  it("saves an episode into the library, which links to the episode's page", async () => {
    const reader = await registeredReader(server.url);
    const $ = await reader.page(`/podcasts/${serial.slug}`);
    const card = $("main ol article").first();
    const id = card.attr("id")!.replace("episode-", "");
    const savePage = new URL(card.find("a:contains('Save')").attr("href")!, server.url);
    expect(`${savePage.pathname}${savePage.search}`).toBe(`/my-library/save?type=podcast&id=${id}`);
    const saved = await reader.request(`/my-library/save?type=podcast&id=${id}`, { form: { type: "podcast", id, newFolder: "Listening" } });
    expect(saved.status).toBe(303);
    const $saved = await reader.page(saved.headers.get("location")!);
    expect($saved("[role=status]").text()).toBe("Saved!");
    expect($saved("a:contains('Back to the episode')")).toHaveLength(1);

    const $library = await reader.page("/my-library/library/listening");
    const link = $library(`main a[href^='/podcasts/${serial.slug}/${id}-']`).first();
    expect(link.text()).toBe(card.find("h2").text());
    expect(link.attr("href")).toBe(card.find("h2 a").attr("href"));
  });

  it("shares an episode by its page: the share page names it and links back to it", async () => {
    const $ = await guest().page(`/podcasts/${episodic.slug}`);
    const card = $("main ol article").first();
    const share = card.find("a:contains('Share')").attr("href")!;
    const $share = await guest().page(share);
    expect($share("main").text()).toContain(card.find("h2").text());
    expect($share("a:contains('Back to the episode')").attr("href")).toBe(card.find("h2 a").attr("href"));
  });
});
