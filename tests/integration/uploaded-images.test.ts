import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBucket } from "~/server/adapters/bucket";
import { bucketImageStorage, databaseImageStorage, type ImageStorage } from "~/server/adapters/image-storage";
import { connect, type Database } from "~/server/db/connection";
import { storeUpload, type UploadedImage } from "~/server/images/uploads";
import { jpegOf, pngOf } from "~/tests/helpers/images";
import { startLoopbackS3, type LoopbackS3 } from "~/tests/helpers/s3-server";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Uploaded images served by the production build (ADR 077). The images are stored by this test
// through its own connection, as another instance would store them: one with its bytes in the
// database, one with them in the loopback S3 bucket the server is configured with. The server
// finds both.

const EDITOR = { id: null, label: "editor@meridian.example" };
const NOW = new Date("2026-05-20T10:00:00Z");

let database: IsolatedConnection;
let db: Database;
let s3: LoopbackS3;
let bucket: ImageStorage;
let server: RunningServer;
let inDatabase: UploadedImage;
let inBucket: UploadedImage;

async function stored(storage: ImageStorage, bytes: Buffer): Promise<UploadedImage> {
  const result = await storeUpload(db, storage, EDITOR, bytes, NOW);
  if (!result.ok) throw new Error(result.message);
  return result.image;
}

beforeAll(async () => {
  database = await isolatedConnection("img");
  db = connect(database);
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
  server = await startBuiltServer(
    {
      IMAGE_BUCKET_URL: s3.url,
      IMAGE_BUCKET_NAME: s3.bucket,
      IMAGE_BUCKET_REGION: s3.region,
      IMAGE_BUCKET_ACCESS_KEY_ID: s3.accessKeyId,
      IMAGE_BUCKET_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    "production",
    database,
  );
  inDatabase = await stored(databaseImageStorage, await jpegOf(1400, 700));
  inBucket = await stored(bucket, await pngOf(800, 600, true));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await db?.destroy();
  await s3?.close();
  await database?.drop();
});

const EXPECTED_TYPES = { avif: ["image/avif", "heif"], webp: ["image/webp", "webp"], jpg: ["image/jpeg", "jpeg"] } as const;

describe(`uploaded images served by the production server (${dialectName})`, () => {
  it("serves every variant stored in the database by another connection, typed by what was encoded, cached for a year", async () => {
    for (const width of [320, 640, 960, 1280, 1400]) {
      for (const [extension, [type, decodedAs]] of Object.entries(EXPECTED_TYPES)) {
        const res = await fetch(`${server.url}/images/${inDatabase.id}/${width}.${extension}`);
        const what = `${width}.${extension}`;
        expect(res.status, what).toBe(200);
        expect(res.headers.get("content-type"), what).toBe(type);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(res.headers.get("etag")).toBe(`"${inDatabase.id}-${width}-${extension === "jpg" ? "jpeg" : extension}"`);
        expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
        expect(res.headers.get("content-encoding")).toBeNull();
        const body = Buffer.from(await res.arrayBuffer());
        expect(Number(res.headers.get("content-length"))).toBe(body.length);
        const meta = await sharp(body).metadata();
        expect([meta.format, meta.width, meta.height], what).toEqual([decodedAs, width, width / 2]);
      }
    }
  });

  it("serves a variant kept in the bucket, fetched from the bucket by the server", async () => {
    const gets = () => s3.requests.filter((r) => r.method === "GET" && r.key === `images/${inBucket.id}/640.webp`);
    expect(gets()).toEqual([]);
    const res = await fetch(`${server.url}/images/${inBucket.id}/640.webp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(s3.objects.get(`images/${inBucket.id}/640.webp`)!.body);
    expect(gets()).toEqual([{ method: "GET", key: `images/${inBucket.id}/640.webp`, status: 200 }]);
  });

  it("answers a request carrying the variant's ETag with 304 and no body, without asking the bucket", async () => {
    const url = `${server.url}/images/${inBucket.id}/320.avif`;
    const first = await fetch(url);
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();
    const requestsBefore = s3.requests.length;
    const again = await fetch(url, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await again.text()).toBe("");
    expect(s3.requests.length).toBe(requestsBefore);
  });

  it("answers 503, kept by no one, while the bucket fails", async () => {
    s3.failing = (method, key) => method === "GET" && key === `images/${inBucket.id}/800.jpg`;
    try {
      const res = await fetch(`${server.url}/images/${inBucket.id}/800.jpg`);
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("retry-after")).toBe("30");
      expect(await res.text()).toBe("This image cannot be fetched just now.");
    } finally {
      s3.failing = () => false;
    }
    expect((await fetch(`${server.url}/images/${inBucket.id}/800.jpg`)).status).toBe(200);
  });

  it("answers 404 for an unknown image, a width it was not made at, and any other kind of file", async () => {
    const { id } = inDatabase;
    for (const path of [
      `/images/00000000-0000-4000-8000-000000000000/640.jpg`,
      `/images/${id}/1920.jpg`,
      `/images/${id}/641.webp`,
      `/images/${id}/640.png`,
      `/images/${id}/640.svg`,
      `/images/${id}/640.html`,
      `/images/${id}/640.jpeg`,
      `/images/${id}/0640.jpg`,
      `/images/not-an-id/640.jpg`,
      `/images/${id.toUpperCase()}/640.jpg`,
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("cache-control") ?? "", path).not.toContain("immutable");
      await res.arrayBuffer();
    }
  });
});
