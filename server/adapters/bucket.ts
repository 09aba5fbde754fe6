import { sha256Hex, signatureHeaders, type SigningKeys } from "./aws-signature";

// An S3-compatible bucket, reached by path-style URLs ({endpoint}/{bucket}/{key}) and requests
// signed with Signature Version 4: what AWS S3, Cloudflare R2, MinIO and their like all answer.

export interface BucketSettings extends SigningKeys {
  /** The service's address, e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000. */
  endpoint: string;
  bucket: string;
  /** How long one request may take. */
  timeoutMs?: number;
  /** The clock requests are signed by. */
  now?: () => Date;
}

export interface Bucket {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes, or undefined when the bucket has no such key. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
}

/** A request the bucket refused or never answered. */
export class BucketError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "BucketError";
  }
}

export function createBucket(settings: BucketSettings): Bucket {
  const base = settings.endpoint.replace(/\/+$/, "");
  const now = settings.now ?? (() => new Date());

  async function send(method: "PUT" | "GET" | "DELETE", key: string, body?: Uint8Array, contentType?: string): Promise<Response> {
    const url = new URL(`${base}/${encodeURIComponent(settings.bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`);
    const extra: Record<string, string> = contentType ? { "content-type": contentType } : {};
    const headers = signatureHeaders({ method, url, headers: extra, payloadHash: sha256Hex(body ?? "") }, settings, now());
    try {
      return await fetch(url, {
        method,
        headers: { ...extra, ...headers },
        ...(body ? { body: new Uint8Array(body) } : {}),
        signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new BucketError(`${method} ${key}: the bucket did not answer (${(error as Error).message})`);
    }
  }

  /** S3's error code (NoSuchKey, SignatureDoesNotMatch…) from an error answer's XML. */
  const errorCode = async (response: Response) => /<Code>([^<]{1,100})<\/Code>/.exec(await response.text())?.[1] ?? response.statusText;

  function refused(method: string, key: string, response: Response, code: string): never {
    throw new BucketError(`${method} ${key}: the bucket answered ${response.status} ${code}`, response.status);
  }

  return {
    async put(key, body, contentType) {
      const response = await send("PUT", key, body, contentType);
      if (!response.ok) refused("PUT", key, response, await errorCode(response));
      await response.body?.cancel();
    },
    async get(key) {
      const response = await send("GET", key);
      if (!response.ok) {
        const code = await errorCode(response);
        if (code === "NoSuchKey") return undefined;
        refused("GET", key, response, code);
      }
      return Buffer.from(await response.arrayBuffer());
    },
    async delete(key) {
      const response = await send("DELETE", key);
      if (!response.ok) refused("DELETE", key, response, await errorCode(response));
      await response.body?.cancel();
    },
  };
}
