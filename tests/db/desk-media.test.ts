import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketImageStorage, databaseImageStorage, type ImageStorage } from "~/server/adapters/image-storage";
import { createBucket } from "~/server/adapters/bucket";
import { podcastFeed, pagesSitemap } from "~/server/content/feeds";
import type { Database } from "~/server/db/connection";
import { auditPage } from "~/server/desk/audit";
import type { Editor } from "~/server/desk/catalogue/common";
import {
  createEpisode,
  createVideo,
  getDeskEpisode,
  getDeskVideo,
  listDeskEpisodes,
  listDeskVideos,
  podcastSeriesBySlug,
  updateEpisode,
  updateVideo,
  uploadEpisodeAudio,
  uploadVideoFile,
  type DeskSeries,
} from "~/server/desk/media";
import { expectSameBytes } from "~/tests/helpers/bytes";
import { CHUNK_BYTES, deleteMediaFile, mediaFile, openMediaFile, storeMediaFile } from "~/server/media";
import { startLoopbackS3, type LoopbackS3 } from "~/tests/helpers/s3-server";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Videos and podcast episodes at the desk (ADR 083) on the database the run uses: media files
// judged by their bytes and kept in chunks (in the database, or the bucket), read back by byte
// ranges; the videos' and episodes' saves guarded by the version read, their audit rows, their
// search entries, the content generation, and the podcast feed's enclosures.

const AT = new Date("2026-05-14T09:00:00Z");
const later = (minutes: number) => new Date(AT.getTime() + minutes * 60_000);
const ada: Editor = { actor: { id: "user-ada", label: "ada@example.org" }, name: "Ada Lovelace" };
const grace: Editor = { actor: { id: "user-grace", label: "grace@example.org" }, name: "Grace Hopper" };

const seedWebm = fs.readFileSync("content/video/ai-pilots-that-actually-ship.webm");
const seedVtt = fs.readFileSync("content/video/ai-pilots-that-actually-ship.vtt");
const seedMp3 = fs.readFileSync("content/podcast/the-long-way-back-s1e1.mp3");
/** A WebM's head and then enough bytes for three chunks (the bytes after the head are not judged). */
const bigWebm = Buffer.concat([seedWebm, Buffer.from(Array.from({ length: 2 * CHUNK_BYTES + 12_345 }, (_, i) => (i * 7) % 251))]);

let db: Database;
let close: () => Promise<void>;
let s3: LoopbackS3;
let bucket: ImageStorage;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  s3 = await startLoopbackS3();
  bucket = bucketImageStorage(
    createBucket({
      endpoint: s3.url,
      bucket: s3.bucket,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    }),
  );
});
afterAll(async () => {
  await close();
  await s3.close();
});

/** The bytes as pieces of this size, as a request's body arrives. */
async function* pieces(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

const mediaRows = async () =>
  Number(
    (
      await db
        .selectFrom("media_file")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const chunkRows = async () =>
  Number(
    (
      await db
        .selectFrom("media_chunk")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const generation = async () =>
  Number((await db.selectFrom("content_generation").select("generation").executeTakeFirstOrThrow()).generation);

async function auditRows(subject: string) {
  const { rows } = await auditPage(db, {}, 1, 1000);
  return rows.filter((row) => row.subject === subject).reverse();
}

describe(`media files on ${dialectName}`, () => {
  it("keeps a WebM in chunks in the database, with its type, size, SHA-256 and length, and gives back any range of it", async () => {
    const stored = await storeMediaFile(db, databaseImageStorage, ada.actor.label, "video", pieces(bigWebm, 50_000), AT);
    if (!stored.ok) throw new Error(stored.message);
    const { file } = stored;
    expect(file).toMatchObject({ kind: "video", contentType: "video/webm", extension: "webm", bytes: bigWebm.length, durationSeconds: 29 });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    const chunks = await db
      .selectFrom("media_chunk")
      .select(["seq", "bytes", "data"])
      .where("file_id", "=", file.id)
      .orderBy("seq")
      .execute();
    expect(chunks.map((c) => c.bytes)).toEqual([CHUNK_BYTES, CHUNK_BYTES, bigWebm.length - 2 * CHUNK_BYTES]);
    expect(chunks.every((c) => c.data !== null)).toBe(true);
    expectSameBytes(await read(await openMediaFile(db, databaseImageStorage, file, 0, file.bytes - 1)), bigWebm);
    // Across a chunk's end, inside one chunk, and the last bytes.
    for (const [start, end] of [
      [CHUNK_BYTES - 10, CHUNK_BYTES + 9],
      [5, 5],
      [2 * CHUNK_BYTES + 1, bigWebm.length - 1],
    ] as const)
      expectSameBytes(await read(await openMediaFile(db, databaseImageStorage, file, start, end)), bigWebm.subarray(start, end + 1));
    await deleteMediaFile(db, databaseImageStorage, file.id);
    expect(await mediaFile(db, file.id)).toBeUndefined();
  });

  it.each([
    [
      "an HTML page as a video",
      "video",
      Buffer.from("<!doctype html><script>alert(1)</script>"),
      "Upload a WebM or MP4 video of up to 500 MB.",
    ],
    ["an MP3 as a video", "video", seedMp3, "Upload a WebM or MP4 video of up to 500 MB."],
    ["a WebM as audio", "audio", seedWebm, "Upload an MP3 of up to 200 MB."],
    [
      "an HTML page named .vtt",
      "captions",
      Buffer.from("<html><body>WEBVTT</body></html>"),
      "Upload captions as a WebVTT file: its first line must be WEBVTT.",
    ],
    ["an empty file", "audio", Buffer.alloc(0), "Choose a file to upload."],
  ] as const)("refuses %s and writes nothing", async (_, kind, bytes, message) => {
    const [files, chunks] = [await mediaRows(), await chunkRows()];
    const stored = await storeMediaFile(db, databaseImageStorage, ada.actor.label, kind, pieces(bytes), AT);
    expect(stored).toMatchObject({ ok: false, message });
    expect([await mediaRows(), await chunkRows()]).toEqual([files, chunks]);
  });

  it("stops reading at the limit, takes back the chunks it had written (and the bucket's objects), and says so", async () => {
    const objects = new Set(s3.objects.keys());
    const [files, chunks] = [await mediaRows(), await chunkRows()];
    let read = 0;
    async function* counted() {
      for await (const piece of pieces(bigWebm)) {
        read += piece.length;
        yield piece;
      }
    }
    for (const storage of [databaseImageStorage, bucket]) {
      read = 0;
      const stored = await storeMediaFile(db, storage, ada.actor.label, "video", counted(), AT, { maxBytes: CHUNK_BYTES + 100 });
      expect(stored).toEqual({ ok: false, reason: "too-large", message: "Upload a WebM or MP4 video of up to 500 MB." });
      expect(read).toBeLessThan(CHUNK_BYTES + 200_000);
    }
    expect([await mediaRows(), await chunkRows()]).toEqual([files, chunks]);
    expect(new Set(s3.objects.keys())).toEqual(objects);
  });

  it("removes what it wrote when the upload breaks off", async () => {
    const [files, chunks] = [await mediaRows(), await chunkRows()];
    async function* broken() {
      yield* pieces(bigWebm.subarray(0, CHUNK_BYTES + 500_000));
      throw new Error("the client went away");
    }
    const stored = await storeMediaFile(db, databaseImageStorage, ada.actor.label, "video", broken(), AT);
    expect(stored).toMatchObject({ ok: false, reason: "broken-off" });
    expect([await mediaRows(), await chunkRows()]).toEqual([files, chunks]);
  });

  it("keeps the chunks in the bucket when one is configured: the rows hold none, and a deletion removes the objects", async () => {
    const stored = await storeMediaFile(db, bucket, ada.actor.label, "video", pieces(bigWebm), AT);
    if (!stored.ok) throw new Error(stored.message);
    const rows = await db
      .selectFrom("media_chunk")
      .select(["data", "storage_key"])
      .where("file_id", "=", stored.file.id)
      .orderBy("seq")
      .execute();
    expect(rows.map((r) => [r.data, r.storage_key])).toEqual([0, 1, 2].map((seq) => [null, `media/${stored.file.id}/${seq}`]));
    expect(s3.objects.get(`media/${stored.file.id}/0`)!.contentType).toBe("video/webm");
    expectSameBytes(
      await read(await openMediaFile(db, bucket, stored.file, CHUNK_BYTES - 3, 2 * CHUNK_BYTES + 3)),
      bigWebm.subarray(CHUNK_BYTES - 3, 2 * CHUNK_BYTES + 4),
    );
    await deleteMediaFile(db, bucket, stored.file.id);
    expect([...s3.objects.keys()].filter((key) => key.startsWith(`media/${stored.file.id}/`))).toEqual([]);
  });
});

describe(`a bucket that fails, on ${dialectName}`, () => {
  it("stores nothing and says so when a chunk cannot be written, and a read fails before any byte is sent", async () => {
    const video = (await listDeskVideos(db, { page: 1, pageSize: 1 })).items[0]!;
    const [files, chunks, objects] = [await mediaRows(), await chunkRows(), new Set(s3.objects.keys())];
    s3.failing = (method, key) => method === "PUT" && key.endsWith("/1");
    try {
      const refused = await uploadVideoFile(db, bucket, ada, video.id, "file", pieces(bigWebm), AT);
      expect(refused).toEqual({
        ok: false,
        reason: "unavailable",
        message: "The uploads' storage did not answer, so nothing was stored: try again in a minute.",
      });
    } finally {
      s3.failing = () => false;
    }
    expect([await mediaRows(), await chunkRows()]).toEqual([files, chunks]);
    expect(new Set(s3.objects.keys())).toEqual(objects);
    expect((await getDeskVideo(db, video.id))!.file.kind).toBe("seed");

    const stored = await storeMediaFile(db, bucket, ada.actor.label, "video", pieces(bigWebm), AT);
    if (!stored.ok) throw new Error(stored.message);
    s3.failing = (method) => method === "GET";
    try {
      await expect(openMediaFile(db, bucket, stored.file, 0, 99)).rejects.toThrow(/the bucket answered 500/);
    } finally {
      s3.failing = () => false;
    }
    await deleteMediaFile(db, bucket, stored.file.id);
  });
});

describe(`videos on ${dialectName}`, () => {
  let videoId: number;

  it("lists videos newest first, finds words in the title, and pages", async () => {
    const all = await listDeskVideos(db, { page: 1, pageSize: 100 });
    expect(all.total).toBe(14);
    const dates = all.items.map((v) => v.published);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(all.items.every((v) => v.file === "seed")).toBe(true);
    expect((await listDeskVideos(db, { q: "WAREHOUSE", page: 1, pageSize: 10 })).items.map((v) => v.slug)).toEqual([
      "how-one-warehouse-cut-picking-errors-in-half",
    ]);
    expect((await listDeskVideos(db, { page: 2, pageSize: 5 })).items.map((v) => v.id)).toEqual(all.items.slice(5, 10).map((v) => v.id));
  });

  it("adds a video with a slug made from its title, at the end of its playlists, indexed for search, and audits it", async () => {
    const before = await generation();
    const fields = {
      title: "Pricing After the Shock",
      description: "How three firms reset their prices.",
      topic: "operations",
      tags: ["pricing", "inflation"],
      published: "2026-05-01",
      subscriberOnly: true,
      playlists: ["the-managers-toolkit"],
    };
    const unknown = await createVideo(db, ada, { ...fields, topic: "No Such Topic", playlists: ["no-such-list"] }, AT);
    expect(unknown).toEqual({
      ok: false,
      reason: "invalid",
      fields: { topic: ['No topic is named "No Such Topic".'], playlists: ['No playlist has the slug "no-such-list".'] },
    });
    const made = await createVideo(db, ada, fields, AT);
    if (!made.ok) throw new Error(JSON.stringify(made));
    videoId = made.value.id;
    expect(made.value).toMatchObject({
      slug: "pricing-after-the-shock",
      topic: "Operations",
      durationSeconds: 0,
      subscriberOnly: true,
      version: 1,
      updatedBy: "Ada Lovelace",
      file: { kind: "none" },
      captions: { kind: "none" },
    });
    expect(await createVideo(db, ada, { ...fields, title: "Pricing after the shock!" }, AT)).toEqual({
      ok: false,
      reason: "invalid",
      fields: { slug: ["Another video has this slug: choose another."] },
    });
    const list = await db
      .selectFrom("playlist_video")
      .innerJoin("playlist", "playlist.id", "playlist_video.playlist_id")
      .select(["video_id", "position"])
      .where("playlist.slug", "=", "the-managers-toolkit")
      .orderBy("position")
      .execute();
    expect(list.at(-1)).toEqual({ video_id: videoId, position: list.length - 1 });
    const doc = await db
      .selectFrom("search_document")
      .select(["title", "url"])
      .where("kind", "=", "video")
      .where("ref_id", "=", videoId)
      .executeTakeFirst();
    expect(doc).toEqual({ title: "Pricing After the Shock", url: `/video/${videoId}/pricing-after-the-shock` });
    expect(await generation()).toBeGreaterThan(before);
    expect(await pagesSitemap(db, "https://example.org")).toContain(`https://example.org/video/${videoId}/pricing-after-the-shock`);
    const rows = await auditRows("video:pricing-after-the-shock");
    expect(rows.map((r) => [r.action, r.actor])).toEqual([["video.create", "ada@example.org"]]);
    expect(rows[0]!.after).toMatchObject({ slug: "pricing-after-the-shock", topic: "Operations", playlists: ["the-managers-toolkit"] });
  });

  it("saves over the version read, refuses a stale one with what is there, and writes nothing when nothing changed", async () => {
    const saved = await updateVideo(db, ada, videoId, { version: 1, title: "Pricing After the Shock, Revisited", playlists: [] }, later(1));
    expect(saved).toMatchObject({
      ok: true,
      changed: true,
      value: { version: 2, title: "Pricing After the Shock, Revisited", playlists: [] },
    });
    const left = await db.selectFrom("playlist_video").select("position").where("video_id", "=", videoId).execute();
    expect(left).toEqual([]);
    const stale = await updateVideo(db, grace, videoId, { version: 1, description: "Grace's words." }, later(2));
    expect(stale).toMatchObject({
      ok: false,
      reason: "stale",
      current: { version: 2, updatedBy: "Ada Lovelace", description: "How three firms reset their prices." },
    });
    const same = await updateVideo(db, grace, videoId, { version: 2, title: "Pricing After the Shock, Revisited" }, later(3));
    expect(same).toMatchObject({ ok: true, changed: false, value: { version: 2 } });
    expect(await updateVideo(db, grace, 999_999, { version: 1 }, later(3))).toEqual({ ok: false, reason: "not-found" });
    const rows = await auditRows("video:pricing-after-the-shock");
    expect(rows.map((r) => r.action)).toEqual(["video.create", "video.update"]);
    expect(rows[1]).toMatchObject({
      before: { title: "Pricing After the Shock", playlists: ["the-managers-toolkit"] },
      after: { title: "Pricing After the Shock, Revisited", playlists: [] },
    });
    const doc = await db
      .selectFrom("search_document")
      .select("title")
      .where("kind", "=", "video")
      .where("ref_id", "=", videoId)
      .executeTakeFirst();
    expect(doc?.title).toBe("Pricing After the Shock, Revisited");
  });

  it("takes an uploaded WebM and its captions in place of nothing, sets the length read from it, and deletes a replaced file", async () => {
    const first = await uploadVideoFile(db, databaseImageStorage, grace, videoId, "file", pieces(seedWebm), later(4));
    if (!first.ok) throw new Error(JSON.stringify(first));
    expect(first.value).toMatchObject({ durationSeconds: 29, version: 3, updatedBy: "Grace Hopper", file: { kind: "upload" } });
    const firstId = first.value.file.kind === "upload" ? first.value.file.file.id : "";
    const captions = await uploadVideoFile(db, databaseImageStorage, grace, videoId, "captions", pieces(seedVtt), later(5));
    expect(captions).toMatchObject({
      ok: true,
      value: { version: 3, captions: { kind: "upload", file: { contentType: "text/vtt; charset=utf-8" } } },
    });
    const again = await uploadVideoFile(db, databaseImageStorage, ada, videoId, "file", pieces(bigWebm), later(6));
    expect(again).toMatchObject({ ok: true, value: { version: 3, file: { kind: "upload", file: { bytes: bigWebm.length } } } });
    expect(await mediaFile(db, firstId)).toBeUndefined();
    expect(await db.selectFrom("media_chunk").select("seq").where("file_id", "=", firstId).execute()).toEqual([]);
    const rows = (await auditRows("video:pricing-after-the-shock")).filter(
      (r) => r.action !== "video.update" && r.action !== "video.create",
    );
    expect(rows.map((r) => [r.action, r.actor])).toEqual([
      ["video.file", "grace@example.org"],
      ["video.captions", "grace@example.org"],
      ["video.file", "ada@example.org"],
    ]);
    expect(rows[0]).toMatchObject({
      before: { file: null, durationSeconds: 0 },
      after: { file: { id: firstId, contentType: "video/webm" }, durationSeconds: 29 },
    });
    expect(rows[2]).toMatchObject({ before: { file: { id: firstId } }, after: { file: { bytes: bigWebm.length } } });
  });

  it("stores nothing for an unknown video, and refuses captions that are not WebVTT", async () => {
    const files = await mediaRows();
    expect(await uploadVideoFile(db, databaseImageStorage, ada, 999_999, "file", pieces(seedWebm), AT)).toEqual({
      ok: false,
      reason: "not-found",
    });
    const html = await uploadVideoFile(
      db,
      databaseImageStorage,
      ada,
      videoId,
      "captions",
      pieces(Buffer.from("<script>alert(1)</script>")),
      AT,
    );
    expect(html).toMatchObject({ ok: false, reason: "wrong-type" });
    expect(await mediaRows()).toBe(files);
    expect((await getDeskVideo(db, videoId))!.captions.kind).toBe("upload");
  });
});

describe(`podcast episodes on ${dialectName}`, () => {
  let series: DeskSeries;
  let episodeId: number;

  beforeAll(async () => {
    series = (await podcastSeriesBySlug(db, "the-meridian-conversation"))!;
  });

  it("lists a series' episodes newest first, with where their audio comes from", async () => {
    const found = await listDeskEpisodes(db, series, { page: 1, pageSize: 50 });
    expect(found.total).toBe(16);
    expect(found.items[0]).toMatchObject({ title: "Scaling Culture From 40 to 400", season: 1, episode: 16, audio: "seed" });
    expect((await listDeskEpisodes(db, series, { q: "bonus", page: 1, pageSize: 50 })).total).toBe(2);
  });

  it("adds an episode with a free number, refuses a taken one, and puts it in the feed", async () => {
    const fields = {
      title: "The Quiet Merger",
      description: "Two firms, one culture.",
      pubDate: "2026-11-10",
      season: 1,
      episode: 16,
      episodeType: "full" as const,
    };
    expect(await createEpisode(db, ada, series, fields, AT)).toEqual({
      ok: false,
      reason: "invalid",
      fields: { episode: ["Another episode of this series has this season and number."] },
    });
    const made = await createEpisode(db, ada, series, { ...fields, episode: 17 }, AT);
    if (!made.ok) throw new Error(JSON.stringify(made));
    episodeId = made.value.id;
    expect(made.value).toMatchObject({ episode: 17, durationSeconds: 0, version: 1, audio: { kind: "none" } });
    const feed = (await podcastFeed(db, series.slug, "https://example.org", { name: "Meridian", email: "x@example.org" }))!;
    expect(feed).toContain("<title>The Quiet Merger</title>");
    expect(feed).toContain(`<enclosure url="https://example.org/media/podcast/${episodeId}.mp3" length="0" type="audio/mpeg"/>`);
    expect((await auditRows(`podcast-episode:${series.slug}/${episodeId}`)).map((r) => r.action)).toEqual(["podcast-episode.create"]);
  });

  it("takes an uploaded MP3, reads its length into the episode (a new version), and the feed gives its size", async () => {
    const uploaded = await uploadEpisodeAudio(db, databaseImageStorage, grace, series, episodeId, pieces(seedMp3), later(1));
    expect(uploaded).toMatchObject({
      ok: true,
      value: { durationSeconds: 40, version: 2, audio: { kind: "upload", file: { bytes: seedMp3.length } } },
    });
    const feed = (await podcastFeed(db, series.slug, "https://example.org", { name: "Meridian", email: "x@example.org" }))!;
    expect(feed).toContain(
      `<enclosure url="https://example.org/media/podcast/${episodeId}.mp3" length="${seedMp3.length}" type="audio/mpeg"/>`,
    );
    expect(feed).toMatch(new RegExp(`<title>The Quiet Merger</title>[\\s\\S]*?<itunes:duration>40</itunes:duration>`));
    // A form opened before the upload is stale now.
    const stale = await updateEpisode(db, ada, series, episodeId, { version: 1, title: "Ada's title" }, later(2));
    expect(stale).toMatchObject({ ok: false, reason: "stale", current: { version: 2, updatedBy: "Grace Hopper", durationSeconds: 40 } });
    const html = await uploadEpisodeAudio(db, databaseImageStorage, grace, series, episodeId, pieces(Buffer.from("ID3<html>")), later(3));
    expect(html).toMatchObject({ ok: false, reason: "wrong-type", message: "Upload an MP3 of up to 200 MB." });
  });

  it("renumbers an uploaded episode but not one playing its seed file, and not onto another's number", async () => {
    const seeded = (await listDeskEpisodes(db, series, { q: "Scaling Culture", page: 1, pageSize: 1 })).items[0]!;
    const refused = await updateEpisode(db, ada, series, seeded.id, { version: 1, episode: 30 }, later(4));
    expect(refused).toMatchObject({ ok: false, reason: "invalid", fields: { episode: [expect.stringContaining("seed file")] } });
    expect(await updateEpisode(db, ada, series, episodeId, { version: 2, episode: 16 }, later(4))).toMatchObject({
      ok: false,
      fields: { episode: ["Another episode of this series has this season and number."] },
    });
    const moved = await updateEpisode(db, ada, series, episodeId, { version: 2, episode: 18, episodeType: "bonus" }, later(5));
    expect(moved).toMatchObject({ ok: true, value: { episode: 18, episodeType: "bonus", version: 3 } });
    expect(await getDeskEpisode(db, "the-long-way-back", episodeId)).toBeUndefined();
    const rows = await auditRows(`podcast-episode:${series.slug}/${episodeId}`);
    expect(rows.map((r) => r.action)).toEqual(["podcast-episode.create", "podcast-episode.audio", "podcast-episode.update"]);
    expect(rows[2]).toMatchObject({ before: { episode: 17, episodeType: "full" }, after: { episode: 18, episodeType: "bonus" } });
  });
});
