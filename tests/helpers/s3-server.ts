import crypto from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A loopback S3: PUT, GET and DELETE of objects in one bucket, by path-style URLs, kept in
// memory. Every request must carry a valid Signature Version 4 in its Authorization header,
// which this server works out again from the request as it arrived (its own reading of AWS's
// rules, sharing no code with the site's signer), as S3 does; the payload's hash is checked
// against the body received.

export interface LoopbackS3 {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Every request answered: its method, key and status. */
  requests: { method: string; key: string; status: number }[];
  /** Requests this answers with 500 InternalError, as a failing S3 would (none unless set). */
  failing: (method: string, key: string) => boolean;
  close: () => Promise<void>;
}

const MAX_SKEW_MS = 15 * 60_000;

const hex = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const mac = (key: Buffer | string, text: string) => crypto.createHmac("sha256", key).update(text, "utf8").digest();

/** RFC 3986 encoding of one path segment or query part: only A-Z a-z 0-9 - . _ ~ stay as they are. */
function uriEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function canonicalQuery(search: URLSearchParams): string {
  return [...search]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

type Check = { ok: true } | { ok: false; status: number; code: string; message: string };

function verify(req: IncomingMessage, body: Buffer, s3: Pick<LoopbackS3, "region" | "accessKeyId" | "secretAccessKey">, now: Date): Check {
  const refuse = (status: number, code: string, message: string): Check => ({ ok: false, status, code, message });
  const authorization = req.headers.authorization;
  if (!authorization) return refuse(403, "AccessDenied", "Access Denied");
  const parts =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!parts) return refuse(400, "AuthorizationHeaderMalformed", "The authorization header is malformed.");
  const [, keyId, day, region, signedNames, signature] = parts as unknown as string[];
  if (keyId !== s3.accessKeyId)
    return refuse(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.");
  if (region !== s3.region)
    return refuse(400, "AuthorizationHeaderMalformed", `The region '${region}' is wrong; expecting '${s3.region}'.`);

  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!when || amzDate.slice(0, 8) !== day)
    return refuse(403, "AccessDenied", "X-Amz-Date is missing or does not match the credential's date.");
  const signedAt = Date.UTC(+when[1]!, +when[2]! - 1, +when[3]!, +when[4]!, +when[5]!, +when[6]!);
  if (Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS)
    return refuse(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.");

  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash !== hex(body))
    return refuse(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.");

  const names = signedNames!.split(";");
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"])
    if (!names.includes(required)) return refuse(403, "AccessDenied", `The ${required} header must be signed.`);
  if (names.join(";") !== [...names].sort().join(";")) return refuse(403, "SignatureDoesNotMatch", "Signed headers are not in order.");

  const url = new URL(req.url ?? "/", "http://loopback");
  const canonicalUri = url.pathname
    .split("/")
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join("/");
  const headerLines = names.map((name) => {
    const value = req.headers[name];
    return `${name}:${(Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ")}`;
  });
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery(url.searchParams), ...headerLines, "", signedNames, payloadHash].join(
    "\n",
  );
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, `${day}/${region}/s3/aws4_request`, hex(canonicalRequest)].join("\n");
  let key = mac(`AWS4${s3.secretAccessKey}`, day!);
  for (const part of [region!, "s3", "aws4_request"]) key = mac(key, part);
  const expected = crypto.createHmac("sha256", key).update(stringToSign).digest();
  if (!crypto.timingSafeEqual(expected, Buffer.from(signature!, "hex")))
    return refuse(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.");
  return { ok: true };
}

const errorXml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function startLoopbackS3(options: { bucket?: string; region?: string; now?: () => Date } = {}): Promise<LoopbackS3> {
  const s3 = {
    bucket: options.bucket ?? "meridian-images",
    region: options.region ?? "eu-west-1",
    accessKeyId: "AKIALOOPBACK0EXAMPLE",
    secretAccessKey: crypto.randomBytes(30).toString("base64"),
    objects: new Map<string, { body: Buffer; contentType: string }>(),
    requests: [] as LoopbackS3["requests"],
    failing: (() => false) as LoopbackS3["failing"],
  };
  const now = options.now ?? (() => new Date());

  function answer(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const path = (req.url ?? "/").split("?", 1)[0]!;
    const [, bucket = "", ...rest] = path.split("/").map((segment) => decodeURIComponent(segment));
    const key = rest.join("/");
    const send = (status: number, headers: Record<string, string | number> = {}, content?: Buffer | string) => {
      s3.requests.push({ method: req.method ?? "", key, status });
      res.writeHead(status, headers).end(content);
    };
    const fail = (status: number, code: string, message: string) =>
      send(status, { "content-type": "application/xml" }, errorXml(code, message));

    const check = verify(req, body, s3, now());
    if (!check.ok) return fail(check.status, check.code, check.message);
    if (bucket !== s3.bucket) return fail(404, "NoSuchBucket", "The specified bucket does not exist");
    if (!key) return fail(400, "InvalidRequest", "This server keeps objects only.");
    if (s3.failing(req.method ?? "", key)) return fail(500, "InternalError", "We encountered an internal error. Please try again.");
    const object = s3.objects.get(key);
    switch (req.method) {
      case "PUT":
        s3.objects.set(key, { body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream") });
        return send(200, { etag: `"${crypto.createHash("md5").update(body).digest("hex")}"` });
      case "GET":
        if (!object) return fail(404, "NoSuchKey", "The specified key does not exist.");
        return send(200, { "content-type": object.contentType, "content-length": object.body.length }, object.body);
      case "DELETE":
        s3.objects.delete(key);
        return send(204);
      default:
        return fail(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => answer(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...s3,
    get failing() {
      return s3.failing;
    },
    set failing(refuse) {
      s3.failing = refuse;
    },
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
