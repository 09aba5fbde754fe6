import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeaders } from "~/server/adapters/aws-signature";
import { BucketError, createBucket, type BucketSettings } from "~/server/adapters/bucket";
import { imageStorageFor } from "~/server/adapters/image-storage";
import { parseConfig } from "~/server/config";
import { startLoopbackS3, type LoopbackS3 } from "~/tests/helpers/s3-server";

// The S3 bucket that may keep uploaded images (ADR 077): the signer against AWS's own worked
// example, then the client against a loopback S3 that checks every signature as S3 does.

let s3: LoopbackS3;
const settings = (changes: Partial<BucketSettings> = {}): BucketSettings => ({
  endpoint: s3.url,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  ...changes,
});

beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(() => s3.close());

describe("Signature Version 4", () => {
  it("signs AWS's example GET Object exactly as AWS's documentation does", () => {
    const headers = signatureHeaders(
      {
        method: "GET",
        url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
        headers: { Range: "bytes=0-9" },
        payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      },
      { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1" },
      new Date("2013-05-24T00:00:00Z"),
    );
    expect(headers["x-amz-date"]).toBe("20130524T000000Z");
    expect(headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request," +
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date," +
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });
});

describe("the S3 bucket client against the loopback S3", () => {
  it("puts, gets and deletes an object, with its content type", async () => {
    const bucket = createBucket(settings());
    const body = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x10, 0x20]);
    await bucket.put("images/abc/640.jpg", body, "image/jpeg");
    expect(s3.objects.get("images/abc/640.jpg")).toEqual({ body, contentType: "image/jpeg" });
    expect(await bucket.get("images/abc/640.jpg")).toEqual(body);
    await bucket.delete("images/abc/640.jpg");
    expect(s3.objects.has("images/abc/640.jpg")).toBe(false);
    expect(await bucket.get("images/abc/640.jpg")).toBeUndefined();
  });

  it("signs keys that need encoding", async () => {
    const bucket = createBucket(settings());
    await bucket.put("odd keys/ä+b (1)*.txt", Buffer.from("x"), "text/plain");
    expect(await bucket.get("odd keys/ä+b (1)*.txt")).toEqual(Buffer.from("x"));
  });

  it("is refused by the loopback S3 with a wrong secret, an unknown key id, a skewed clock or a wrong region", async () => {
    const cases: [Partial<BucketSettings>, string][] = [
      [{ secretAccessKey: "not-the-secret" }, "403 SignatureDoesNotMatch"],
      [{ accessKeyId: "AKIANOBODY0000000000" }, "403 InvalidAccessKeyId"],
      [{ now: () => new Date(Date.now() - 20 * 60_000) }, "403 RequestTimeTooSkewed"],
      [{ region: "us-west-2" }, "400 AuthorizationHeaderMalformed"],
      [{ bucket: "someone-elses" }, "404 NoSuchBucket"],
    ];
    for (const [change, answer] of cases) {
      const bucket = createBucket(settings(change));
      const error = await bucket.put("images/refused.jpg", Buffer.from("x"), "image/jpeg").catch((e: unknown) => e);
      expect(error, answer).toBeInstanceOf(BucketError);
      expect((error as BucketError).message).toContain(answer);
      expect(await bucket.get("images/refused.jpg").catch((e: unknown) => String(e))).toContain(answer);
    }
    expect(s3.objects.has("images/refused.jpg")).toBe(false);
  });

  it("refuses a request whose signature was made for another body, and one whose signature was altered", async () => {
    const url = new URL(`${s3.url}/${s3.bucket}/images/tampered.jpg`);
    const signed = signatureHeaders(
      { method: "PUT", url, headers: {}, payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
      s3,
      new Date(),
    );
    const otherBody = await fetch(url, { method: "PUT", headers: signed, body: "not empty" });
    expect(otherBody.status).toBe(400);
    expect(await otherBody.text()).toContain("XAmzContentSHA256Mismatch");
    const altered = signed.authorization!.replace(/Signature=(.)/, (_, c: string) => `Signature=${c === "0" ? "1" : "0"}`);
    const forged = await fetch(url, { method: "PUT", headers: { ...signed, authorization: altered } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("SignatureDoesNotMatch");
    const unsigned = await fetch(url, { method: "PUT" });
    expect(unsigned.status).toBe(403);
    expect(s3.objects.has("images/tampered.jpg")).toBe(false);
  });

  it("says so when the bucket does not answer", async () => {
    const bucket = createBucket(settings({ endpoint: "http://127.0.0.1:9", timeoutMs: 2_000 }));
    await expect(bucket.get("images/x.jpg")).rejects.toThrow(/did not answer/);
  });
});

describe("the configured image storage", () => {
  it("is the database unless a bucket is given, and a bucket needs its name and keys", () => {
    expect(imageStorageFor(parseConfig({})).kind).toBe("database");
    const bucketEnv = {
      IMAGE_BUCKET_URL: "http://127.0.0.1:9000",
      IMAGE_BUCKET_NAME: "meridian-images",
      IMAGE_BUCKET_ACCESS_KEY_ID: "AKIA",
      IMAGE_BUCKET_SECRET_ACCESS_KEY: "secret",
    };
    expect(imageStorageFor(parseConfig(bucketEnv)).kind).toBe("bucket");
    expect(() => parseConfig({ ...bucketEnv, IMAGE_BUCKET_SECRET_ACCESS_KEY: undefined })).toThrow(
      /IMAGE_BUCKET_URL needs IMAGE_BUCKET_NAME, IMAGE_BUCKET_ACCESS_KEY_ID and IMAGE_BUCKET_SECRET_ACCESS_KEY/,
    );
    expect(() => parseConfig({ ...bucketEnv, IMAGE_BUCKET_NAME: "Not_A_Bucket" })).toThrow(/IMAGE_BUCKET_NAME must be a bucket name/);
  });

  it("keeps bytes in the bucket and answers null for the row, or hands them back for the row", async () => {
    const bucketEnv = {
      IMAGE_BUCKET_URL: s3.url,
      IMAGE_BUCKET_NAME: s3.bucket,
      IMAGE_BUCKET_REGION: s3.region,
      IMAGE_BUCKET_ACCESS_KEY_ID: s3.accessKeyId,
      IMAGE_BUCKET_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const bytes = Buffer.from("variant bytes");
    const inBucket = imageStorageFor(parseConfig(bucketEnv));
    expect(await inBucket.put("images/k/320.webp", bytes, "image/webp")).toBeNull();
    expect(s3.objects.get("images/k/320.webp")?.contentType).toBe("image/webp");
    expect(await inBucket.get("images/k/320.webp")).toEqual(bytes);
    const inDatabase = imageStorageFor(parseConfig({}));
    expect(await inDatabase.put("images/k/320.webp", bytes, "image/webp")).toBe(bytes);
  });
});
