import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketImageStorage, databaseImageStorage } from "~/server/adapters/image-storage";
import { createBucket } from "~/server/adapters/bucket";
import type { Database } from "~/server/db/connection";
import { auditPage, type AuditActor } from "~/server/desk/audit";
import { storedVariant, storeUpload, uploadedImage, variantBytes, type UploadResult } from "~/server/images/uploads";
import { exifHasGps, gifOf, jpegOf, jpegWithGps, pngClaiming, pngOf, webpOf } from "~/tests/helpers/images";
import { startLoopbackS3, type LoopbackS3 } from "~/tests/helpers/s3-server";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// Uploaded images (ADR 077) on the database the run uses: what is accepted and refused, judged by
// content alone; the variants made, with nothing of the upload's metadata; and where their bytes go.

const EDITOR: AuditActor = { id: null, label: "editor@meridian.example" };
const NOW = new Date("2026-05-20T10:00:00Z");
const REFUSED = "Upload a JPEG, PNG or WebP image of up to 20 MB.";
let db: Database;
let close: () => Promise<void>;
let s3: LoopbackS3;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await close();
  await s3.close();
});

function accepted(result: UploadResult) {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
}

/** The variants' widths per format, and each variant decoded: its real format and size. */
async function decodedVariants(id: string) {
  const image = (await uploadedImage(db, id))!;
  return Promise.all(
    image.variants.map(async (v) => {
      const bytes = (await variantBytes(databaseImageStorage, (await storedVariant(db, id, v.width, v.format))!))!;
      const meta = await sharp(bytes).metadata();
      expect(bytes.length).toBe(v.bytes);
      return { ...v, decoded: { format: meta.format, compression: meta.compression, width: meta.width, height: meta.height }, meta };
    }),
  );
}

const formatOf = { avif: { format: "heif", compression: "av1" }, webp: { format: "webp" }, jpeg: { format: "jpeg" } } as const;

describe(`uploads on ${dialectName}`, () => {
  it("makes a JPEG's five widths in AVIF, WebP and JPEG, each what it says it is, and logs the upload", async () => {
    const upload = await jpegOf(2400, 1600);
    const { image, existing } = accepted(await storeUpload(db, databaseImageStorage, EDITOR, upload, NOW, { alt: "  A disc over a bar " }));
    expect(existing).toBe(false);
    expect(image).toMatchObject({ width: 2400, height: 1600, format: "jpeg", bytes: upload.length, alt: "A disc over a bar" });
    expect(image.uploadedBy).toBe(EDITOR.label);
    const variants = await decodedVariants(image.id);
    expect(variants.map((v) => `${v.width}.${v.format}`).sort()).toEqual(
      [320, 640, 960, 1280, 1920].flatMap((w) => ["avif", "jpeg", "webp"].map((f) => `${w}.${f}`)).sort(),
    );
    for (const v of variants) {
      expect(v.decoded).toMatchObject({ ...formatOf[v.format], width: v.width, height: Math.round((v.width * 1600) / 2400) });
      expect(v.height).toBe(v.decoded.height);
    }
    const { rows } = await auditPage(db, { action: "image.upload" }, 1, 50);
    expect(rows.find((row) => row.subject === `image:${image.id}`)).toMatchObject({
      actor: EDITOR.label,
      at: NOW.toISOString(),
      after: { format: "jpeg", width: 2400, height: 1600, variants: 15, storage: "database" },
    });
  });

  it("takes a PNG (its transparency kept in AVIF and WebP, on white in JPEG) and a WebP, never wider than they are", async () => {
    const png = accepted(await storeUpload(db, databaseImageStorage, EDITOR, await pngOf(700, 500, true), NOW)).image;
    expect(png).toMatchObject({ format: "png", width: 700, height: 500, alt: null });
    const pngVariants = await decodedVariants(png.id);
    expect([...new Set(pngVariants.map((v) => v.width))]).toEqual([320, 640, 700]);
    for (const v of pngVariants) expect(v.meta.hasAlpha, `${v.width}.${v.format}`).toBe(v.format !== "jpeg");

    const webp = accepted(await storeUpload(db, databaseImageStorage, EDITOR, await webpOf(200, 120), NOW)).image;
    expect(webp).toMatchObject({ format: "webp", width: 200, height: 120 });
    const webpVariants = await decodedVariants(webp.id);
    expect(webpVariants.map((v) => `${v.width}x${v.height}.${v.format}`).sort()).toEqual(["200x120.avif", "200x120.jpeg", "200x120.webp"]);
  });

  it("turns a sideways photo upright and keeps none of its EXIF: no GPS position, no camera, no orientation", async () => {
    const upload = await jpegWithGps(1200, 800);
    const before = await sharp(upload).metadata();
    expect(before.orientation).toBe(6);
    expect(exifHasGps(before.exif)).toBe(true);
    expect(upload.includes("Meridian Test Camera")).toBe(true);

    const { image } = accepted(await storeUpload(db, databaseImageStorage, EDITOR, upload, NOW));
    expect(image).toMatchObject({ width: 800, height: 1200 });
    const variants = await decodedVariants(image.id);
    expect(new Set(variants.map((v) => v.width))).toEqual(new Set([320, 640, 800]));
    for (const v of variants) {
      expect(v.decoded.width! < v.decoded.height!, `${v.width}.${v.format} upright`).toBe(true);
      expect(v.meta.exif, `${v.width}.${v.format}`).toBeUndefined();
      expect(v.meta.orientation).toBeUndefined();
      expect(v.meta.xmp).toBeUndefined();
      const bytes = (await variantBytes(databaseImageStorage, (await storedVariant(db, image.id, v.width, v.format))!))!;
      expect(bytes.includes("Exif\0\0"), `${v.width}.${v.format}`).toBe(false);
      expect(bytes.includes("Meridian Test Camera")).toBe(false);
    }
  });

  it("refuses what is not a JPEG, PNG or WebP of up to 20 MB, whatever it starts with, and keeps nothing of it", async () => {
    const jpeg = await jpegOf(640, 480);
    const html = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
    const refusals: [string, Buffer][] = [
      ["a GIF", await gifOf(64, 64)],
      ["an SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')],
      ["an HTML page (named photo.jpg: the name never reaches the check)", html],
      ["HTML behind a JPEG's first bytes", Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), html])],
      ["a JPEG cut off halfway", jpeg.subarray(0, Math.floor(jpeg.length / 2))],
      ["a PNG's signature over a JPEG", Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), jpeg])],
      ["nothing", Buffer.alloc(0)],
      ["a 25 MB body", Buffer.concat([jpeg, Buffer.alloc(25 * 1024 * 1024 - jpeg.length)])],
    ];
    const imagesBefore = await db.selectFrom("image").select("id").execute();
    const auditBefore = (await auditPage(db, { action: "image.upload" }, 1, 1)).total;
    for (const [what, bytes] of refusals) {
      const result = await storeUpload(db, databaseImageStorage, EDITOR, bytes, NOW);
      expect(result, what).toEqual({ ok: false, reason: what === "a 25 MB body" ? "too-large" : "not-an-image", message: REFUSED });
    }
    expect(await db.selectFrom("image").select("id").execute()).toEqual(imagesBefore);
    expect((await auditPage(db, { action: "image.upload" }, 1, 1)).total).toBe(auditBefore);
  });

  it("refuses a decompression bomb (a small PNG claiming 10,000 × 10,000 pixels) before decoding it", async () => {
    const bomb = pngClaiming(10_000, 10_000);
    expect(bomb.length).toBeLessThan(200);
    expect(await storeUpload(db, databaseImageStorage, EDITOR, bomb, NOW)).toEqual({
      ok: false,
      reason: "too-many-pixels",
      message: "That image has too many pixels: upload one of up to 64 megapixels (8,000 × 8,000).",
    });
  });

  it("answers a file uploaded again with the image it made the first time, and logs both uploads", async () => {
    const upload = await pngOf(400, 300);
    const first = accepted(await storeUpload(db, databaseImageStorage, EDITOR, upload, NOW));
    const again = accepted(await storeUpload(db, databaseImageStorage, { id: null, label: "other@meridian.example" }, upload, NOW));
    expect(again).toEqual({ ok: true, image: first.image, existing: true });
    const rows = (await auditPage(db, { action: "image.upload" }, 1, 100)).rows.filter((row) => row.subject === `image:${first.image.id}`);
    expect(rows.map((row) => [row.actor, row.after])).toEqual([
      ["other@meridian.example", { existing: true }],
      [EDITOR.label, expect.objectContaining({ storage: "database" })],
    ]);
  });

  it("keeps the bytes in the bucket when one is configured: the rows hold none, and the bucket gives them back", async () => {
    const storage = bucketImageStorage(
      createBucket({
        endpoint: s3.url,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      }),
    );
    const { image } = accepted(await storeUpload(db, storage, EDITOR, await jpegOf(1000, 500), NOW));
    const keys = image.variants.map((v) => `images/${image.id}/${v.width}.${v.format === "jpeg" ? "jpg" : v.format}`);
    expect(keys).toHaveLength(12);
    expect([...s3.objects.keys()].filter((key) => key.startsWith(`images/${image.id}/`)).sort()).toEqual([...keys].sort());
    for (const v of image.variants) {
      const row = (await storedVariant(db, image.id, v.width, v.format))!;
      expect(row.data).toBeNull();
      const bytes = (await variantBytes(storage, row))!;
      expect(bytes.length).toBe(v.bytes);
      expect(s3.objects.get(row.storageKey)!.contentType).toBe(`image/${v.format}`);
    }
    expect(await storedVariant(db, image.id, 1920, "avif")).toBeUndefined();
  });

  it("stores nothing when the bucket refuses one variant, and takes back the ones it had kept", async () => {
    const storage = bucketImageStorage(
      createBucket({
        endpoint: s3.url,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      }),
    );
    const objectsBefore = new Set(s3.objects.keys());
    const imagesBefore = await db.selectFrom("image").select("id").execute();
    const requestsBefore = s3.requests.length;
    s3.failing = (method, key) => method === "PUT" && key.endsWith("/960.webp");
    try {
      await expect(storeUpload(db, storage, EDITOR, await jpegOf(1300, 800), NOW)).rejects.toThrow(/500 InternalError/);
    } finally {
      s3.failing = () => false;
    }
    // 1300 px wide: five widths in three formats, one refused, fourteen taken back.
    expect(s3.requests.slice(requestsBefore).filter((r) => r.method === "DELETE" && r.status === 204)).toHaveLength(14);
    expect(new Set(s3.objects.keys())).toEqual(objectsBefore);
    expect(await db.selectFrom("image").select("id").execute()).toEqual(imagesBefore);
  });

  it("stores one image when the same file is uploaded twice at once, and leaves nothing of the other in the bucket", async () => {
    const storage = bucketImageStorage(
      createBucket({
        endpoint: s3.url,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
      }),
    );
    const upload = await webpOf(500, 500);
    const objectsBefore = s3.objects.size;
    const requestsBefore = s3.requests.length;
    const results = (await Promise.all([1, 2].map(() => storeUpload(db, storage, EDITOR, upload, NOW)))).map(accepted);
    expect(results.map((r) => r.existing).sort()).toEqual([false, true]);
    expect(results[0]!.image).toEqual(results[1]!.image);
    // Both made their variants (2 widths, 3 formats); the one that lost took its own away again.
    const methods = s3.requests.slice(requestsBefore).map((r) => r.method);
    expect([methods.filter((m) => m === "PUT").length, methods.filter((m) => m === "DELETE").length]).toEqual([12, 6]);
    expect(s3.objects.size - objectsBefore).toBe(6);
    expect([...s3.objects.keys()].filter((key) => key.includes(results[0]!.image.id))).toHaveLength(6);
  });
});
