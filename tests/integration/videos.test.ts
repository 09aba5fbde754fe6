import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// The video pages against the production build: who may watch, share and embed; the media
// files behind them; playlists and the plain video path.

interface SeedVideo {
  slug: string;
  title: string;
  subscriberOnly: boolean;
  durationSeconds: number;
}
const media = JSON.parse(fs.readFileSync(path.resolve("content/media.json"), "utf8")) as {
  videos: SeedVideo[];
  playlists: { slug: string; videos: string[] }[];
};
const freeVideo = media.videos.find((v) => !v.subscriberOnly)!;
const lockedVideo = media.videos.find((v) => v.subscriberOnly)!;
const longPlaylist = media.playlists.find((p) => p.videos.length > 6)!;

let server: RunningServer;
/** Seed slug to the video's own address, read off the video page's links. */
const urls = new Map<string, string>();

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" });
  for (let page = 1; ; page++) {
    const res = await fetch(`${server.url}/video${page > 1 ? `?page=${page}` : ""}`);
    if (res.status === 404) break;
    const $ = cheerio.load(await res.text());
    $("#all-videos + ul h3 a").each((_, a) => {
      const href = $(a).attr("href")!;
      urls.set(href.split("/").pop()!, href);
    });
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const urlOf = (video: SeedVideo) => urls.get(video.slug)!;
const idOf = (video: SeedVideo) => urlOf(video).split("/")[2]!;
const guest = () => new Reader(server.url);

function sharing($: cheerio.CheerioAPI) {
  return {
    player: $("main video source").attr("src"),
    captions: $("main video track[kind=captions]").attr("src"),
    share: $("main h2:contains('Share this video')").text(),
    networks: $("main section:has(h2:contains('Share this video')) li")
      .map((_, li) => $(li).text().replace(" (opens in a new window)", ""))
      .get(),
    embed: $("#embed-code").text(),
    wall: $("[data-wall=video]").text(),
  };
}

describe("the video list", () => {
  it("lists every seed video, newest first, over pages of 12, and the playlists", async () => {
    expect(urls.size).toBe(media.videos.length);
    const $ = await guest().page("/video");
    expect($("h1").text()).toBe("Video");
    expect(
      $("main section h2")
        .map((_, h) => $(h).text())
        .get(),
    ).toEqual(expect.arrayContaining(["The Manager's Toolkit", "All videos"]));
    expect((await guest().request("/video?page=99")).status).toBe(404);
  });

  it("lists the video pages in the sitemap", async () => {
    const xml = await (await fetch(`${server.url}/sitemaps/pages.xml`)).text();
    for (const video of media.videos) expect(xml).toContain(`${server.url}${urlOf(video)}`);
  });

  it("opens a playlist on its first video, and sends an unknown playlist back to the list", async () => {
    const first = media.videos.find((v) => v.slug === longPlaylist.videos[0])!;
    const res = await guest().request(`/video?playlist=${longPlaylist.slug}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${urlOf(first)}?playlist=${longPlaylist.slug}`);
    for (const bad of ["no-such-list", "bad%20name", "x".repeat(200)]) {
      const back = await guest().request(`/video?playlist=${bad}`);
      expect(back.headers.get("location"), bad).toBe("/video");
    }
  });
});

describe("a video page", () => {
  it("moves the plain numeric path and a wrong slug to the video's address, keeping the query; an unknown id is a 404", async () => {
    const plain = await guest().request(`/video/${idOf(freeVideo)}?playlist=${longPlaylist.slug}`);
    expect(plain.status).toBe(301);
    expect(plain.headers.get("location")).toBe(`${urlOf(freeVideo)}?playlist=${longPlaylist.slug}`);
    const wrong = await guest().request(`/video/${idOf(freeVideo)}/not-its-slug`);
    expect(wrong.status).toBe(301);
    expect(wrong.headers.get("location")).toBe(urlOf(freeVideo));
    for (const missing of [
      "/video/999999999",
      "/video/999999999/some-slug",
      "/video/abc/some-slug",
      "/video/embed/1/x",
      "/video/12345678901234567890",
    ]) {
      expect((await guest().request(missing)).status, missing).toBe(404);
    }
  });

  it("plays a free video for a guest, with captions, sharing and the embed code", async () => {
    const $ = await guest().page(urlOf(freeVideo));
    const seen = sharing($);
    expect(seen.player).toBe(`/media/video/${idOf(freeVideo)}.webm`);
    expect(seen.captions).toBe(`/media/video/${idOf(freeVideo)}.vtt`);
    expect(seen.share).toBe("Share this video");
    expect(seen.networks).toEqual(["Connect with Facebook", "Connect with X", "Connect with LinkedIn", "E-mail"]);
    expect(seen.embed).toContain(`<iframe src="${server.url}/video/embed/${idOf(freeVideo)}/${freeVideo.slug}"`);
    expect(seen.wall).toBe("");
    // Spec §9: the length reads h:mm:ss, under an hour too (the seed's videos are under a minute);
    // the structured data keeps ISO 8601.
    expect(freeVideo.durationSeconds).toBeLessThan(60);
    expect($("main").text()).toContain(`0:00:${String(freeVideo.durationSeconds).padStart(2, "0")} · `);
    const ld = JSON.parse($('script[type="application/ld+json"]').text()) as Record<string, unknown>;
    expect(ld).toMatchObject({
      "@type": "VideoObject",
      name: freeVideo.title,
      isAccessibleForFree: true,
      duration: `PT${freeVideo.durationSeconds}S`,
    });
  });

  it("shows a subscriber-only video to others as its poster and a way to subscribe: no player, share, embed or media", async () => {
    const readers = { guest: guest(), registered: await registeredReader(server.url) };
    for (const [who, reader] of Object.entries(readers)) {
      const $ = await reader.page(urlOf(lockedVideo));
      const seen = sharing($);
      expect(seen, who).toMatchObject({ player: undefined, captions: undefined, share: "", networks: [], embed: "" });
      expect(seen.wall, who).toContain("This video is for subscribers");
      expect($("[data-wall=video] a").first().attr("href"), who).toBe("/subscriptions?ab=paywall-video");
      expect($("[data-wall=video] a:contains('Sign in')").length, who).toBe(who === "guest" ? 1 : 0);
      expect(JSON.stringify(JSON.parse($('script[type="application/ld+json"]').text())), who).not.toContain("/media/");
      for (const file of ["webm", "vtt"]) {
        const res = await reader.request(`/media/video/${idOf(lockedVideo)}.${file}`);
        expect(res.status, `${who} ${file}`).toBe(403);
        expect(res.headers.get("content-type"), `${who} ${file}`).not.toMatch(/video|vtt/);
      }
    }
  });

  it("lets a subscriber watch, share and embed a subscriber-only video", async () => {
    const reader = await subscribe(await registeredReader(server.url));
    const seen = sharing(await reader.page(urlOf(lockedVideo)));
    expect(seen.player).toBe(`/media/video/${idOf(lockedVideo)}.webm`);
    expect(seen.networks).toEqual(["Share on Facebook", "Share on X", "Share on LinkedIn", "E-mail"]);
    expect(seen.embed).toContain("<iframe");
    expect(seen.wall).toBe("");
    const file = await reader.request(`/media/video/${idOf(lockedVideo)}.webm`);
    expect(file.status).toBe(200);
    expect(file.headers.get("cache-control")).toBe("private, max-age=3600");
    const captions = await reader.request(`/media/video/${idOf(lockedVideo)}.vtt`);
    expect((await captions.text()).startsWith("WEBVTT")).toBe(true);
  });
});

describe("the media files", () => {
  it("serves the whole file, or the byte range a player asks for when it seeks", async () => {
    const file = `/media/video/${idOf(freeVideo)}.webm`;
    const size = fs.statSync(path.resolve(`content/video/${freeVideo.slug}.webm`)).size;
    const whole = await fetch(server.url + file);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/webm");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect((await whole.arrayBuffer()).byteLength).toBe(size);

    const part = await fetch(server.url + file, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${size}`);
    const bytes = new Uint8Array(await part.arrayBuffer());
    expect(Buffer.from(bytes)).toEqual(fs.readFileSync(path.resolve(`content/video/${freeVideo.slug}.webm`)).subarray(100, 200));

    const past = await fetch(server.url + file, { headers: { Range: `bytes=${size}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${size}`);
  });

  it("answers 404 for a file no video has", async () => {
    for (const missing of [
      "/media/video/999999.webm",
      "/media/video/1.mp4",
      `/media/video/${idOf(freeVideo)}.webm.bak`,
      "/media/video/..%2Fsecrets.json",
    ]) {
      expect((await guest().request(missing)).status, missing).toBe(404);
    }
  });

  it("draws each video's poster", async () => {
    const res = await fetch(`${server.url}/art/video/${freeVideo.slug}.svg`);
    expect(res.headers.get("content-type")).toContain("image/svg+xml");
    expect(await res.text()).toContain("MERIDIAN REVIEW VIDEO");
    expect((await fetch(`${server.url}/art/video/no-such-video.svg`)).status).toBe(404);
  });
});

describe("playlists", () => {
  it("shows 6 videos, then 6 more with each Load more, and always the one being watched", async () => {
    const first = media.videos.find((v) => v.slug === longPlaylist.videos[0])!;
    const $ = await guest().page(`${urlOf(first)}?playlist=${longPlaylist.slug}`);
    const items = ($: cheerio.CheerioAPI) => $("aside ol li").length;
    expect(items($)).toBe(6);
    const more = $("aside a:contains('Load more videos')").attr("href")!;
    expect(more).toBe(`${urlOf(first)}?playlist=${longPlaylist.slug}&shown=12`);
    const $more = await guest().page(more);
    expect(items($more)).toBe(longPlaylist.videos.length);
    expect($more("aside a:contains('Load more videos')").length).toBe(0);

    const last = media.videos.find((v) => v.slug === longPlaylist.videos.at(-1))!;
    const $last = await guest().page(`${urlOf(last)}?playlist=${longPlaylist.slug}`);
    expect($last("aside [aria-current]").text()).toContain(last.title);
  });

  it("sends a playlist that does not hold the video back to the bare video address", async () => {
    const outside = media.videos.find((v) => !longPlaylist.videos.includes(v.slug))!;
    for (const list of [longPlaylist.slug, "no-such-list", "bad!name"]) {
      const res = await guest().request(`${urlOf(outside)}?playlist=${list}`);
      expect(res.status, list).toBe(302);
      expect(res.headers.get("location"), list).toBe(urlOf(outside));
    }
  });
});

describe("the embed", () => {
  it("is the player alone, and only it may be framed by other sites", async () => {
    const embed = await fetch(`${server.url}/video/embed/${idOf(freeVideo)}/${freeVideo.slug}`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const $ = cheerio.load(await embed.text());
    expect($("header, nav, footer").length).toBe(0);
    expect($("video source").attr("src")).toBe(`/media/video/${idOf(freeVideo)}.webm`);
    expect($('meta[name="robots"]').attr("content")).toBe("noindex");

    const page = await fetch(server.url + urlOf(freeVideo));
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("shows a subscriber-only video's embed to others as its poster and a link, without the media", async () => {
    const $ = await guest().page(`/video/embed/${idOf(lockedVideo)}/${lockedVideo.slug}`);
    expect($("video").length).toBe(0);
    expect($("main").text()).toContain("This video is for subscribers");
  });
});
