import crypto from "node:crypto";

// AWS Signature Version 4 for S3 requests, signed in headers, as
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html describes. The
// requests signed here carry no query string.

export interface SigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export const sha256Hex = (data: string | Uint8Array) => crypto.createHash("sha256").update(data).digest("hex");
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac("sha256", key).update(data).digest();

/** A path as S3 canonicalises it: every byte but the unreserved characters and "/" percent-encoded. */
export const canonicalPath = (pathname: string) =>
  pathname
    .split("/")
    .map((segment) =>
      encodeURIComponent(decodeURIComponent(segment)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join("/");

/** 20130524T000000Z */
const amzDate = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/**
 * The headers that sign a request: `x-amz-date`, `x-amz-content-sha256` (the payload's hash,
 * given) and `authorization`, over the host, those two and every header in `headers`.
 */
export function signatureHeaders(
  request: { method: string; url: URL; headers: Record<string, string>; payloadHash: string },
  keys: SigningKeys,
  now: Date,
): Record<string, string> {
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const signed: Record<string, string> = {
    host: request.url.host,
    "x-amz-content-sha256": request.payloadHash,
    "x-amz-date": date,
  };
  for (const [name, value] of Object.entries(request.headers)) signed[name.toLowerCase()] = value.trim().replace(/\s+/g, " ");
  const names = Object.keys(signed).sort();
  const canonicalRequest = [
    request.method,
    canonicalPath(request.url.pathname),
    "",
    ...names.map((name) => `${name}:${signed[name]}`),
    "",
    names.join(";"),
    request.payloadHash,
  ].join("\n");
  const scope = `${day}/${keys.region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", date, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day), keys.region), "s3"), "aws4_request");
  const signature = crypto.createHmac("sha256", signingKey).update(stringToSign).digest("hex");
  return {
    "x-amz-date": date,
    "x-amz-content-sha256": request.payloadHash,
    authorization: `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope},SignedHeaders=${names.join(";")},Signature=${signature}`,
  };
}
