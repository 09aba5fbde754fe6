import { config, type Config } from "~/server/config";
import { createBucket, type Bucket } from "./bucket";

// Where uploads keep their bytes: uploaded images' variants (ADR 077) and the chunks of uploaded
// media files (ADR 083), each in its database row by default, or in an S3-compatible bucket when
// one is configured (images under images/, media under media/). Either way every instance finds
// them. A row whose `data` is set is read from the row whatever is configured now, so uploads
// kept in the database stay served after a bucket is configured.

export interface ImageStorage {
  readonly kind: "database" | "bucket";
  /**
   * Keeps an image variant's or a media chunk's bytes under key. Answers what its row holds: the bytes themselves (the
   * database keeps them), or null once the bucket has them.
   */
  put(key: string, bytes: Buffer, contentType: string): Promise<Buffer | null>;
  /** The bytes kept under key outside the database; undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes what put kept outside the database, if anything. */
  delete(key: string): Promise<void>;
}

export const databaseImageStorage: ImageStorage = {
  kind: "database",
  put: async (_key, bytes) => bytes,
  get: async () => undefined,
  delete: async () => {},
};

export function bucketImageStorage(bucket: Bucket): ImageStorage {
  return {
    kind: "bucket",
    async put(key, bytes, contentType) {
      await bucket.put(key, bytes, contentType);
      return null;
    },
    get: (key) => bucket.get(key),
    delete: (key) => bucket.delete(key),
  };
}

/** The storage the configuration names. */
export function imageStorageFor(c: Config): ImageStorage {
  if (!c.IMAGE_BUCKET_URL) return databaseImageStorage;
  return bucketImageStorage(
    createBucket({
      endpoint: c.IMAGE_BUCKET_URL,
      bucket: c.IMAGE_BUCKET_NAME!,
      region: c.IMAGE_BUCKET_REGION,
      accessKeyId: c.IMAGE_BUCKET_ACCESS_KEY_ID!,
      secretAccessKey: c.IMAGE_BUCKET_SECRET_ACCESS_KEY!,
    }),
  );
}

let current: ImageStorage | undefined;

export function imageStorage(): ImageStorage {
  current ??= imageStorageFor(config());
  return current;
}
