import fs from "node:fs";
import http from "node:http";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { COMMAND_LINE } from "~/server/desk/audit";
import { ApiContract } from "~/tests/helpers/api-contract";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Videos and podcast episodes (ADR 083) through the production build, two instances on one
// database: an editor adds and edits them at the desk without JS (lost updates refused with both
// versions), uploads their files as multipart forms, and readers get them from either instance
// with byte ranges, the type their bytes were decoded as and the same access rules; bad files
// are refused with the page's message and never a 500; the Admin API does the same with a key.

const webm = fs.readFileSync("content/video/ai-pilots-that-actually-ship.webm");
const vtt = fs.readFileSync("content/video/ai-pilots-that-actually-ship.vtt");
const mp3 = fs.readFileSync("content/podcast/the-long-way-back-s1e1.mp3");
const HTML = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");

let connection: IsolatedConnection;
let db: Database;
let one: RunningServer;
let two: RunningServer;
let people: ReturnType<typeof deskPeople>;
let editor: { reader: Reader; name: string };

beforeAll(async () => {
  connection = await isolatedConnection("media");
  [one, two] = await Promise.all([
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
    startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection),
  ]);
  db = connect(connection);
  people = deskPeople(one.url, db);
  editor = await people.staffMember(["editor"], "Edna");
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await Promise.all([one?.stop(), two?.stop()]);
  await connection?.drop();
});

type Upload = { bytes: Buffer; name: string; type: string };

/** A browser's multipart post of a media form; it keeps the cookies set. */
async function upload(reader: Reader, path: string, intent: string, file: Upload | null, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", intent);
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(`${reader.baseUrl}${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: reader.cookieHeader(), Origin: reader.baseUrl, ...headers },
    redirect: "manual",
  });
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    reader.setCookie(pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1));
  }
  return res;
}

/** A body sent chunked (no Content-Length) until the server answers; what was sent by then. */
async function chunkedPost(path: string, headers: Record<string, string>, head: string, filler: Buffer, total: number, method = "POST") {
  const { hostname, port } = new URL(one.url);
  const req = http.request({ hostname, port, path, method, agent: false, headers: { ...headers, "Transfer-Encoding": "chunked" } });
  let sent = 0;
  let answered = false;
  const answer = new Promise<{ status: number; text: string; sentBefore: number }>((resolve, reject) => {
    req.on("response", (res) => {
      answered = true;
      const sentBefore = sent;
      let text = "";
      res.setEncoding("utf8").on("data", (part: string) => (text += part));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, text, sentBefore });
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
  });
  req.write(head);
  const pump = () => {
    while (!answered && sent < total) {
      sent += filler.length;
      if (!req.write(filler)) return void req.once("drain", pump);
    }
    if (!answered) req.end();
  };
  pump();
  return answer;
}

/** A PUT whose Content-Length says more than it sends: the answer comes before the body would have. */
async function announcedPut(path: string, headers: Record<string, string>, length: number) {
  const { hostname, port } = new URL(one.url);
  const req = http.request({
    hostname,
    port,
    path,
    method: "PUT",
    agent: false,
    headers: { ...headers, "Content-Length": String(length) },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (part: string) => (text += part));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, text });
      });
    });
    req.on("error", reject);
  });
  req.write(webm.subarray(0, 1000));
  return answer;
}

const alert = (html: string) => cheerio.load(html)("[role=alert]").text();

async function ranged(url: string, range?: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { ...headers, ...(range ? { Range: range } : {}) } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

let videoId: number;
let videoPath: string;

describe(`the desk's videos (${dialectName})`, () => {
  it("lists videos newest first with a search by title and plain page links", async () => {
    const page = await editor.reader.page("/desk/videos");
    expect(page("h1").text()).toBe("Videos");
    expect(page("main table tbody tr")).toHaveLength(14);
    expect(page("[role=status]").text()).toBe("14 videos, newest first. Page 1 of 1.");
    expect(page("main a[href='/desk/videos/new']").text()).toBe("Add a video");
    const found = await editor.reader.page("/desk/videos?q=warehouse");
    expect(found("main table tbody tr td:first-child").text()).toBe("How One Warehouse Cut Picking Errors in Half");
    expect(found("main table tbody tr td:last-child").text()).toBe("Seed file");
    // The desk's bar and home name the area.
    expect(
      page("nav[aria-label=Desk] a")
        .map((_, a) => page(a).text())
        .get(),
    ).toEqual(expect.arrayContaining(["Videos", "Podcasts"]));
    expect((await editor.reader.page("/desk"))("h2").text()).toContain("Video and audio");
  });

  it("adds a video without JS: the form's errors first, then the video, on its files page", async () => {
    const bad = await editor.reader.request("/desk/videos/new", {
      form: { title: "", description: "x", topic: "No Such Topic", published: "2026-02-30", durationSeconds: "1:75" },
    });
    expect(bad.status).toBe(400);
    const badPage = cheerio.load(await bad.text());
    expect(badPage("#new-video-title-error, [id$=title-error]").text()).toContain("Enter a title");
    expect(badPage("main").text()).toContain("Enter the length as minutes:seconds");
    const unknownTopic = await editor.reader.request("/desk/videos/new", {
      form: { title: "Supply Lines", description: "Ports and ships.", topic: "No Such Topic", published: "2026-03-10" },
    });
    expect(unknownTopic.status).toBe(422);
    expect(
      cheerio
        .load(await unknownTopic.text())("main")
        .text(),
    ).toContain('No topic is named "No Such Topic".');

    const form = new URLSearchParams([
      ["title", "Supply Lines Under Strain"],
      ["description", "How three shippers rerouted around a closed strait."],
      ["topic", "Operations"],
      ["tags", "logistics, shipping"],
      ["durationSeconds", "2:05"],
      ["published", "2026-03-10"],
      ["playlists", "the-managers-toolkit"],
    ]);
    const res = await editor.reader.request("/desk/videos/new", { form });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    videoId = Number(/^\/desk\/videos\/(\d+)\?saved=created$/.exec(location)![1]);
    expect((await editor.reader.page(location))("[role=status]").text()).toBe(
      "Video added. Upload its file and captions on its files page.",
    );
    const files = await editor.reader.page(`/desk/videos/${videoId}/files`);
    expect(files("main").text()).toContain("No file yet: readers see the poster and cannot play the video.");
    expect(files("form[enctype='multipart/form-data'] input[type=file][name=file]").first().attr("accept")).toBe(
      "video/webm,video/mp4,.webm,.mp4",
    );
    expect(files("main").text()).toContain("A WebM or MP4 video of up to 500 MB.");
    expect(files("main").text()).toContain("A WebVTT file of up to 1 MB.");

    const edit = await editor.reader.page(`/desk/videos/${videoId}`);
    expect(edit("#edit-video-title").attr("value")).toBe("Supply Lines Under Strain");
    expect(edit("#edit-video-durationSeconds").attr("value")).toBe("2:05");
    expect(edit("input[name=playlists][value=the-managers-toolkit]").attr("checked")).toBeDefined();
    videoPath = `/video/${videoId}/supply-lines-under-strain`;
    const readerPage = await new Reader(two.url).page(videoPath);
    expect(readerPage("h1").text()).toBe("Supply Lines Under Strain");
    const search = await new Reader(two.url).page("/search?q=strait");
    expect(search(`a[href='${videoPath}']`).length).toBeGreaterThan(0);
  });

  it("saves over the version it opened, and refuses a stale save with who saved it, keeping both versions", async () => {
    const other = await people.staffMember(["admin"], "Otto");
    const opened = await editor.reader.page(`/desk/videos/${videoId}`);
    const version = opened("input[name=version]").attr("value")!;
    const fields = (title: string) =>
      new URLSearchParams([
        ["version", version],
        ["title", title],
        ["description", "How three shippers rerouted around a closed strait."],
        ["topic", "Operations"],
        ["tags", "logistics, shipping"],
        ["durationSeconds", "2:05"],
        ["published", "2026-03-10"],
      ]);
    const first = await other.reader.request(`/desk/videos/${videoId}`, { form: fields("Supply Lines, Otto's Cut") });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe(`/desk/videos/${videoId}?saved=saved`);
    const stale = await editor.reader.request(`/desk/videos/${videoId}`, { form: fields("Supply Lines, Edna's Cut") });
    expect(stale.status).toBe(409);
    const page = cheerio.load(await stale.text());
    const row = await db.selectFrom("video").select(["updated_at", "version"]).where("id", "=", videoId).executeTakeFirstOrThrow();
    const when = `${row.updated_at!.slice(0, 10)} ${row.updated_at!.slice(11, 16)} UTC`;
    // Said once, in the error summary, where the form's description points.
    expect(page("form#edit-video").attr("aria-describedby")).toContain("edit-video-error");
    expect(page("#edit-video-error").text()).toContain(`This video was changed by Otto Desk at ${when} since you opened it`);
    expect(page("main").text().split("This video was changed by")).toHaveLength(2);
    expect(page("#edit-video-title").attr("value")).toBe("Supply Lines, Edna's Cut");
    expect(page("aside h2").text()).toBe(`Saved since you opened it (version ${row.version})`);
    expect(page("aside").text()).toContain("Supply Lines, Otto's Cut");
    // The form now carries the saved version: saving again replaces it, knowingly.
    expect(page("input[name=version]").attr("value")).toBe(String(row.version));
    expect((await db.selectFrom("video").select("title").where("id", "=", videoId).executeTakeFirstOrThrow()).title).toBe(
      "Supply Lines, Otto's Cut",
    );
  });

  it("uploads a WebM through the form: readers on either instance get it with ranges, as decoded, nosniff", async () => {
    const res = await upload(editor.reader, `/desk/videos/${videoId}/files`, "file", { bytes: webm, name: "clip.txt", type: "text/plain" });
    expect(res.status).toBe(303);
    const files = await editor.reader.page(`/desk/videos/${videoId}/files`);
    expect(files("[role=status]").text()).toBe("The video file is uploaded: readers get it now.");
    expect(files("main").text()).toMatch(/Uploaded: WEBM, 97 KB, 0:29 long, by .+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./);
    // The other instance may hold the page from before the upload for up to a second (ADR 076).
    await expect
      .poll(async () => (await new Reader(two.url).page(videoPath))("video source").attr("src"), { timeout: 5_000, interval: 250 })
      .toBe(`/media/video/${videoId}.webm`);
    const page = await new Reader(two.url).page(videoPath);
    expect(page("video source").attr("type")).toBe("video/webm");
    for (const server of [one, two]) {
      const whole = await ranged(`${server.url}/media/video/${videoId}.webm`);
      expect(whole.res.status).toBe(200);
      expect(whole.bytes.equals(webm)).toBe(true);
      expect(whole.res.headers.get("content-type")).toBe("video/webm");
      expect(whole.res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(whole.res.headers.get("accept-ranges")).toBe("bytes");
      const part = await ranged(`${server.url}/media/video/${videoId}.webm`, "bytes=1000-1999");
      expect(part.res.status).toBe(206);
      expect(part.res.headers.get("content-range")).toBe(`bytes 1000-1999/${webm.length}`);
      expect(part.bytes.equals(webm.subarray(1000, 2000))).toBe(true);
      const tail = await ranged(`${server.url}/media/video/${videoId}.webm`, "bytes=-100");
      expect(tail.bytes.equals(webm.subarray(webm.length - 100))).toBe(true);
      expect((await ranged(`${server.url}/media/video/${videoId}.webm`, `bytes=${webm.length}-`)).res.status).toBe(416);
      const etag = whole.res.headers.get("etag")!;
      expect((await ranged(`${server.url}/media/video/${videoId}.webm`, undefined, { "If-None-Match": etag })).res.status).toBe(304);
      expect((await ranged(`${server.url}/media/video/${videoId}.mp4`)).res.status).toBe(404);
    }
    // The length read from the WebM is the video's now.
    const edit = await editor.reader.page(`/desk/videos/${videoId}`);
    expect(edit("#edit-video-durationSeconds").attr("value")).toBe("0:29");
  });

  it.each<[string, string, Upload | null, number, string]>([
    [
      "an HTML page named .webm",
      "file",
      { bytes: HTML, name: "x.webm", type: "video/webm" },
      422,
      "Upload a WebM or MP4 video of up to 500 MB.",
    ],
    ["an MP3 as the video", "file", { bytes: mp3, name: "x.webm", type: "video/webm" }, 422, "Upload a WebM or MP4 video of up to 500 MB."],
    [
      "an HTML page named .vtt",
      "captions",
      { bytes: HTML, name: "captions.vtt", type: "text/vtt" },
      422,
      "Upload captions as a WebVTT file: its first line must be WEBVTT.",
    ],
    [
      "captions with a broken timing",
      "captions",
      { bytes: Buffer.from("WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nHi\n"), name: "c.vtt", type: "text/vtt" },
      422,
      // Without "-->", line 3 reads as the cue's name, and line 4 is not a timing.
      "Line 4: a cue's timing must read like 00:00:01.000 --> 00:00:04.000.",
    ],
    [
      "captions over 1 MB",
      "captions",
      { bytes: Buffer.concat([vtt, Buffer.alloc(1024 * 1024, 0x20)]), name: "c.vtt", type: "text/vtt" },
      413,
      "Upload captions as a WebVTT file of up to 1 MB.",
    ],
    ["no file", "captions", null, 400, "Choose a file to upload."],
    [
      "an intent the page has not",
      "poster",
      { bytes: webm, name: "x.webm", type: "video/webm" },
      400,
      "The form could not be read: choose the file and upload it again.",
    ],
  ])("refuses %s with the page's message, and the video keeps its file", async (_, intent, file, status, message) => {
    const res = await upload(editor.reader, `/desk/videos/${videoId}/files`, intent, file);
    expect(res.status).toBe(status);
    expect(alert(await res.text())).toBe(message);
    expect((await ranged(`${one.url}/media/video/${videoId}.webm`)).bytes.equals(webm)).toBe(true);
  });

  it("refuses chunked captions once they pass 1 MB, without reading the rest, and the server stays up", async () => {
    const boundary = "----mediaTest";
    const { status, text, sentBefore } = await chunkedPost(
      `/desk/videos/${videoId}/files`,
      { "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: editor.reader.cookieHeader(), Origin: one.url },
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncaptions\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.vtt"\r\nContent-Type: text/vtt\r\n\r\nWEBVTT\n\n`,
      Buffer.alloc(64 * 1024, 0x20),
      64 * 1024 * 1024,
    );
    expect(status).toBe(413);
    expect(alert(text)).toBe("Upload captions as a WebVTT file of up to 1 MB.");
    expect(sentBefore).toBeLessThan(64 * 1024 * 1024);
    expect((await fetch(`${one.url}/healthz`)).status).toBe(200);
  });

  it("uploads captions, served as text/vtt; a subscriber-only video's files stay for subscribers", async () => {
    expect(
      (await upload(editor.reader, `/desk/videos/${videoId}/files`, "captions", { bytes: vtt, name: "c.txt", type: "text/plain" })).status,
    ).toBe(303);
    const captions = await ranged(`${two.url}/media/video/${videoId}.vtt`);
    expect(captions.res.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(captions.bytes.equals(vtt)).toBe(true);

    const opened = await editor.reader.page(`/desk/videos/${videoId}`);
    const save = await editor.reader.request(`/desk/videos/${videoId}`, {
      form: new URLSearchParams([
        ["version", opened("input[name=version]").attr("value")!],
        ["title", "Supply Lines Under Strain"],
        ["description", "How three shippers rerouted around a closed strait."],
        ["topic", "Operations"],
        ["published", "2026-03-10"],
        ["subscriberOnly", "on"],
      ]),
    });
    expect(save.status).toBe(303);
    for (const file of ["webm", "vtt"]) {
      const guest = await fetch(`${two.url}/media/video/${videoId}.${file}`);
      expect(guest.status).toBe(403);
      expect(guest.headers.get("cache-control")).toBe("private, no-store");
    }
    const subscriber = await subscribe(await registeredReader(one.url));
    const watched = await subscriber.request(`/media/video/${videoId}.webm`, { headers: { Range: "bytes=0-99" } });
    expect(watched.status).toBe(206);
    expect(watched.headers.get("cache-control")).toBe("private, max-age=300");
    expect(Buffer.from(await watched.arrayBuffer()).equals(webm.subarray(0, 100))).toBe(true);
  });
});

describe(`the desk's podcasts (${dialectName})`, () => {
  let episodeId: number;

  it("lists the series and a series' episodes, adds an episode and uploads its MP3: the feed on the other instance gives its size", async () => {
    const series = await editor.reader.page("/desk/podcasts");
    expect(
      series("main table a")
        .map((_, a) => series(a).attr("href"))
        .get(),
    ).toEqual(["/desk/podcasts/the-long-way-back", "/desk/podcasts/the-meridian-conversation"]);
    const episodes = await editor.reader.page("/desk/podcasts/the-meridian-conversation?q=bonus");
    expect(episodes("main table tbody tr")).toHaveLength(2);
    const add = await editor.reader.page("/desk/podcasts/the-meridian-conversation/new");
    expect(add("#new-episode-season").attr("value")).toBe("1");
    expect(add("#new-episode-episode").attr("value")).toBe("17");

    const made = await editor.reader.request("/desk/podcasts/the-meridian-conversation/new", {
      form: {
        title: "The Quiet Merger",
        description: "Two firms, one culture.",
        pubDate: "2026-11-10",
        season: "1",
        episode: "17",
        episodeType: "full",
      },
    });
    expect(made.status).toBe(303);
    episodeId = Number(/\/the-meridian-conversation\/(\d+)\?saved=created$/.exec(made.headers.get("location")!)![1]);
    const taken = await editor.reader.request("/desk/podcasts/the-meridian-conversation/new", {
      form: { title: "Again", description: "Again.", pubDate: "2026-11-10", season: "1", episode: "17", episodeType: "full" },
    });
    expect(taken.status).toBe(422);
    expect(
      cheerio
        .load(await taken.text())("main")
        .text(),
    ).toContain("Another episode of this series has this season and number.");

    const audioPath = `/desk/podcasts/the-meridian-conversation/${episodeId}/audio`;
    const html = await upload(editor.reader, audioPath, "audio", {
      bytes: Buffer.concat([mp3.subarray(0, 10), HTML]),
      name: "x.mp3",
      type: "audio/mpeg",
    });
    expect(html.status).toBe(422);
    expect(alert(await html.text())).toBe("Upload an MP3 of up to 200 MB.");
    const res = await upload(editor.reader, audioPath, "audio", { bytes: mp3, name: "episode.bin", type: "application/octet-stream" });
    expect(res.status).toBe(303);
    expect((await editor.reader.page(audioPath))("[role=status]").text()).toBe("The audio is uploaded: listeners and the feed get it now.");

    const feed = await (await fetch(`${two.url}/podcasts/the-meridian-conversation/feed.xml`)).text();
    expect(feed).toContain(`<enclosure url="${two.url}/media/podcast/${episodeId}.mp3" length="${mp3.length}" type="audio/mpeg"/>`);
    expect(feed).toMatch(/<title>The Quiet Merger<\/title>[\s\S]*?<itunes:duration>40<\/itunes:duration>/);
    const part = await ranged(`${two.url}/media/podcast/${episodeId}.mp3`, "bytes=100-199");
    expect(part.res.status).toBe(206);
    expect(part.res.headers.get("content-type")).toBe("audio/mpeg");
    expect(part.bytes.equals(mp3.subarray(100, 200))).toBe(true);
  });

  it("refuses a stale save of an episode with who saved it and both versions", async () => {
    const path = `/desk/podcasts/the-meridian-conversation/${episodeId}`;
    const opened = await editor.reader.page(path);
    const fields = (title: string, version: string) => ({
      version,
      title,
      description: "Two firms, one culture.",
      pubDate: "2026-11-10",
      season: "1",
      episode: "17",
      episodeType: "full",
      durationSeconds: "0:40",
    });
    const version = opened("input[name=version]").attr("value")!;
    expect((await editor.reader.request(path, { form: fields("The Quiet Merger, Part One", version) })).status).toBe(303);
    const stale = await editor.reader.request(path, { form: fields("The Loud Merger", version) });
    expect(stale.status).toBe(409);
    const page = cheerio.load(await stale.text());
    expect(page("#edit-episode-error").text()).toMatch(
      /^This podcast episode was changed by Edna Desk at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC since you opened it/,
    );
    expect(page("#edit-episode-title").attr("value")).toBe("The Loud Merger");
    expect(page("aside").text()).toContain("The Quiet Merger, Part One");
  });

  it("is the site's 404 to readers and guests, 403 to a role without media, and refuses another site's upload", async () => {
    const { reader } = await people.signedInReader("plain");
    const service = await people.staffMember(["service"]);
    const paths = [
      "/desk/videos",
      "/desk/videos/new",
      `/desk/videos/${videoId}`,
      `/desk/videos/${videoId}/files`,
      "/desk/podcasts",
      "/desk/podcasts/the-long-way-back",
      "/desk/podcasts/the-long-way-back/new",
      `/desk/podcasts/the-meridian-conversation/${episodeId}`,
      `/desk/podcasts/the-meridian-conversation/${episodeId}/audio`,
    ];
    for (const path of paths) {
      for (const asker of [reader, new Reader(one.url)]) {
        expect((await asker.request(path)).status, path).toBe(404);
        expect((await upload(asker, path, "file", { bytes: webm, name: "a.webm", type: "video/webm" })).status, path).toBe(404);
      }
      expect((await service.reader.request(path)).status, path).toBe(403);
    }
    expect((await upload(service.reader, `/desk/videos/${videoId}/files`, "file", { bytes: webm, name: "a", type: "x" })).status).toBe(403);
    const foreign = await upload(
      editor.reader,
      `/desk/videos/${videoId}/files`,
      "file",
      { bytes: webm, name: "a", type: "x" },
      {
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
      },
    );
    expect(foreign.status).toBe(403);
    expect((await editor.reader.request("/desk/videos/999999")).status).toBe(404);
    expect((await editor.reader.request("/desk/podcasts/no-such-show")).status).toBe(404);
    expect((await editor.reader.request(`/desk/podcasts/the-long-way-back/${episodeId}`)).status).toBe(404);
    const headers = await editor.reader.request("/desk/videos");
    expect(headers.headers.get("cache-control")).toContain("no-store");
    expect(headers.headers.get("x-robots-tag")).toContain("noindex");
  });

  it("logs every change with its actor, before and after", async () => {
    const rows = await db.selectFrom("desk_audit").select(["action", "actor", "subject"]).execute();
    const actions = (subject: string) => rows.filter((r) => r.subject === subject).map((r) => r.action);
    expect(actions("video:supply-lines-under-strain").sort()).toEqual(
      ["video.captions", "video.create", "video.file", "video.update", "video.update"].sort(),
    );
    expect(actions(`podcast-episode:the-meridian-conversation/${episodeId}`)).toEqual(
      expect.arrayContaining(["podcast-episode.create", "podcast-episode.audio", "podcast-episode.update"]),
    );
  });
});

describe(`the Admin API's videos and episodes (${dialectName})`, () => {
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const json = (key: string, method: string, body: unknown) => ({
    method,
    body: JSON.stringify(body),
    headers: { ...bearer(key), "Content-Type": "application/json" },
  });

  it("adds, reads and changes a video, uploads its file and captions as the body, and refuses what it should", async () => {
    const contract = await ApiContract.load(one.url);
    const { key } = await createApiKey(db, COMMAND_LINE, "Media tool", ["editor"], new Date());
    const created = await fetch(
      `${one.url}/desk/api/videos`,
      json(key, "POST", {
        title: "Ports After the Storm",
        description: "Three ports, one season.",
        topic: "Operations",
        tags: ["ports"],
        published: "2026-04-01",
      }),
    );
    expect(created.status).toBe(201);
    const video = (await contract.check("/desk/api/videos", "post", created)) as { id: number; version: number; file: object };
    expect(created.headers.get("location")).toBe(`/desk/api/videos/${video.id}`);
    expect(video.file).toEqual({ source: "none", url: null, upload: null });
    const invalid = await fetch(`${one.url}/desk/api/videos`, json(key, "POST", { title: "", topic: "Nope", published: "soon" }));
    expect(invalid.status).toBe(400);
    expect(((await contract.check("/desk/api/videos", "post", invalid)) as { code: string }).code).toBe("invalid_input");
    const unknownTopic = await fetch(
      `${one.url}/desk/api/videos`,
      json(key, "POST", { title: "X", description: "Y", topic: "Nope", published: "2026-04-01" }),
    );
    expect(unknownTopic.status).toBe(400);
    expect(await unknownTopic.json()).toMatchObject({ code: "invalid_input", fields: { topic: ['No topic is named "Nope".'] } });

    const at = `/desk/api/videos/${video.id}`;
    const put = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
      fetch(`${one.url}${path}`, {
        method: "PUT",
        body: new Uint8Array(body),
        headers: { ...bearer(key), "Content-Type": "application/octet-stream", ...headers },
      });
    const media = await put(`${at}/media`, webm);
    expect(media.status).toBe(200);
    const withFile = (await contract.check("/desk/api/videos/{id}/media", "put", media)) as {
      version: number;
      durationSeconds: number;
      file: { source: string; url: string; upload: { contentType: string; bytes: number } };
    };
    expect(withFile.file).toMatchObject({
      source: "upload",
      url: `${one.url}/media/video/${video.id}.webm`,
      upload: { contentType: "video/webm", bytes: webm.length },
    });
    expect(withFile).toMatchObject({ durationSeconds: 29, version: 2 });
    expect((await ranged(`${two.url}/media/video/${video.id}.webm`, "bytes=0-9")).bytes.equals(webm.subarray(0, 10))).toBe(true);

    const htmlCaptions = await put(`${at}/captions`, HTML, { "Content-Type": "text/vtt" });
    expect(htmlCaptions.status).toBe(400);
    expect(await contract.check("/desk/api/videos/{id}/captions", "put", htmlCaptions)).toMatchObject({
      code: "invalid_input",
      fields: { file: ["Upload captions as a WebVTT file: its first line must be WEBVTT."] },
    });
    const captions = await put(`${at}/captions`, vtt);
    expect(captions.status).toBe(200);
    expect(
      ((await contract.check("/desk/api/videos/{id}/captions", "put", captions)) as { captions: { source: string } }).captions.source,
    ).toBe("upload");
    const announced = await announcedPut(`${at}/media`, bearer(key), 600 * 1024 * 1024);
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.text)).toMatchObject({ code: "too_large", message: "Upload a WebM or MP4 video of up to 500 MB." });
    const chunked = await chunkedPost(
      `${at}/captions`,
      { ...bearer(key), "Content-Type": "text/vtt" },
      "WEBVTT\n\n",
      Buffer.alloc(64 * 1024, 0x20),
      64 * 1024 * 1024,
      "PUT",
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text)).toMatchObject({ code: "too_large" });
    expect(chunked.sentBefore).toBeLessThan(64 * 1024 * 1024);

    const patched = await fetch(`${one.url}${at}`, json(key, "PATCH", { version: 2, title: "Ports After the Storm (Revised)" }));
    expect(patched.status).toBe(200);
    expect(await contract.check("/desk/api/videos/{id}", "patch", patched)).toMatchObject({
      version: 3,
      title: "Ports After the Storm (Revised)",
    });
    const stale = await fetch(`${one.url}${at}`, json(key, "PATCH", { version: 2, title: "Late" }));
    expect(stale.status).toBe(409);
    expect(await contract.check("/desk/api/videos/{id}", "patch", stale)).toMatchObject({
      code: "conflict",
      by: expect.stringMatching(/^API key Media tool \(/),
      current: { version: 3, title: "Ports After the Storm (Revised)" },
    });
    const slug = await fetch(`${one.url}${at}`, json(key, "PATCH", { version: 3, slug: "new-slug" }));
    expect(slug.status).toBe(400);
    for (const path of ["/desk/api/videos/999999", "/desk/api/videos/999999/media"]) {
      const res = path.endsWith("media") ? await put(path, webm) : await fetch(`${one.url}${path}`, { headers: bearer(key) });
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBe("not_found");
    }
    const list = await fetch(`${one.url}/desk/api/videos?q=ports`, { headers: bearer(key) });
    expect(((await contract.check("/desk/api/videos", "get", list)) as { items: { id: number }[] }).items.map((v) => v.id)).toEqual([
      video.id,
    ]);
  });

  it("adds an episode, uploads its audio as the body, and refuses other keys, no key and unknown series", async () => {
    const contract = await ApiContract.load(one.url);
    const { key } = await createApiKey(db, COMMAND_LINE, "Podcast tool", ["editor"], new Date());
    const base = "/desk/api/podcasts/the-long-way-back/episodes";
    const created = await fetch(
      `${one.url}${base}`,
      json(key, "POST", {
        title: "Season Three Trailer",
        description: "Coming soon.",
        pubDate: "2026-12-01",
        season: 3,
        episode: 1,
        episodeType: "trailer",
      }),
    );
    expect(created.status).toBe(201);
    const episode = (await contract.check("/desk/api/podcasts/{series}/episodes", "post", created)) as { id: number };
    const audio = await fetch(`${one.url}${base}/${episode.id}/audio`, { method: "PUT", body: new Uint8Array(mp3), headers: bearer(key) });
    expect(audio.status).toBe(200);
    expect(await contract.check("/desk/api/podcasts/{series}/episodes/{id}/audio", "put", audio)).toMatchObject({
      durationSeconds: 40,
      version: 2,
      audio: {
        source: "upload",
        url: `${one.url}/media/podcast/${episode.id}.mp3`,
        upload: { contentType: "audio/mpeg", bytes: mp3.length },
      },
    });
    const webmAsAudio = await fetch(`${one.url}${base}/${episode.id}/audio`, {
      method: "PUT",
      body: new Uint8Array(webm),
      headers: bearer(key),
    });
    expect(webmAsAudio.status).toBe(400);
    await contract.check("/desk/api/podcasts/{series}/episodes/{id}/audio", "put", webmAsAudio);
    const got = await fetch(`${one.url}${base}/${episode.id}`, { headers: bearer(key) });
    expect(await contract.check("/desk/api/podcasts/{series}/episodes/{id}", "get", got)).toMatchObject({
      series: "the-long-way-back",
      season: 3,
    });
    const patched = await fetch(`${one.url}${base}/${episode.id}`, json(key, "PATCH", { version: 2, episodeType: "bonus" }));
    expect(await contract.check("/desk/api/podcasts/{series}/episodes/{id}", "patch", patched)).toMatchObject({
      episodeType: "bonus",
      version: 3,
    });
    const listed = await fetch(`${one.url}${base}?q=trailer`, { headers: bearer(key) });
    expect(((await contract.check("/desk/api/podcasts/{series}/episodes", "get", listed)) as { total: number }).total).toBeGreaterThan(0);
    const noSeries = await fetch(`${one.url}/desk/api/podcasts/no-such-show/episodes`, { headers: bearer(key) });
    expect(noSeries.status).toBe(404);
    const elsewhere = await fetch(`${one.url}/desk/api/podcasts/the-meridian-conversation/episodes/${episode.id}`, {
      headers: bearer(key),
    });
    expect(elsewhere.status).toBe(404);

    const { key: service } = await createApiKey(db, COMMAND_LINE, "Service tool", ["service"], new Date());
    expect((await fetch(`${one.url}${base}`, { headers: bearer(service) })).status).toBe(403);
    expect(
      (await fetch(`${one.url}${base}/${episode.id}/audio`, { method: "PUT", body: new Uint8Array(mp3), headers: bearer(service) })).status,
    ).toBe(403);
    expect((await fetch(`${one.url}${base}`)).status).toBe(401);

    const feed = await (await fetch(`${two.url}/podcasts/the-long-way-back/feed.xml`)).text();
    expect(feed).toContain(`<enclosure url="${two.url}/media/podcast/${episode.id}.mp3" length="${mp3.length}" type="audio/mpeg"/>`);
    const calls = await db.selectFrom("desk_audit").select(["action", "actor"]).where("actor", "like", "API key Podcast tool%").execute();
    expect(calls.filter((c) => c.action === "api.call").length).toBeGreaterThanOrEqual(8);
    expect(calls.map((c) => c.action)).toEqual(
      expect.arrayContaining(["podcast-episode.create", "podcast-episode.audio", "podcast-episode.update"]),
    );
  });
});
