import crypto from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { preferredEncoding, type Encoding } from "./static";

// Files the site draws rather than ships (the cover art under /art/): the same for every
// reader and every request. The first request for one goes through Remix, which draws it; the
// server keeps the answer, compressed once, and sends it from then on as it sends the build's
// static files, without Remix.

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

interface GeneratedFile {
  headers: OutgoingHttpHeaders;
  etag: string;
  body: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
  bytes: number;
}

const KEPT_HEADERS = [
  "content-type",
  "cache-control",
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
];
/** Below this, compression saves less than the headers it costs. */
const MIN_COMPRESSED = 512;

export class GeneratedFiles {
  private readonly files = new Map<string, GeneratedFile>();
  private bytes = 0;

  constructor(
    private readonly isGenerated: (pathname: string) => boolean,
    private readonly maxBytes: number,
  ) {}

  /** The pathname to keep the answer under, when this request is for a generated file. */
  keyOf(req: IncomingMessage): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const pathname = (req.url ?? "").split(/[?#]/, 1)[0]!;
    return this.isGenerated(pathname) ? pathname : null;
  }

  /** Sends the kept file and returns true, or returns false when it is not kept (yet, or any more). */
  serve(key: string, req: IncomingMessage, res: ServerResponse): boolean {
    const file = this.files.get(key);
    if (!file) return false;
    this.files.delete(key);
    this.files.set(key, file);
    send(file, req, res);
    return true;
  }

  /**
   * Keeps Remix's answer for a generated file if it is one to keep (a 200 that sets no cookie),
   * and returns it to be sent; null, with the answer untouched, for any other.
   */
  async keep(key: string, response: Response): Promise<GeneratedFile | null> {
    if (response.status !== 200 || response.headers.has("set-cookie") || response.headers.has("content-encoding")) return null;
    const body = Buffer.from(await response.arrayBuffer());
    const headers: OutgoingHttpHeaders = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const encoded: GeneratedFile["encoded"] = {};
    // A PNG is deflated already: brotli 11 takes about a second on a podcast cover to save a fifth of it.
    if (body.length >= MIN_COMPRESSED && headers["content-type"] !== "image/png") {
      // On the thread pool: brotli 11 costs tens of milliseconds, which the event loop must not wait out.
      [encoded.br, encoded.gzip] = await Promise.all([
        brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip(body, { level: 9 }),
      ]);
    }
    const etag = `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    const file: GeneratedFile = {
      headers,
      etag,
      body,
      encoded,
      bytes: body.length + (encoded.br?.length ?? 0) + (encoded.gzip?.length ?? 0),
    };
    const previous = this.files.get(key);
    if (previous) this.bytes -= previous.bytes;
    this.files.set(key, file);
    this.bytes += file.bytes;
    for (const [oldest, kept] of this.files) {
      if (this.bytes <= this.maxBytes) break;
      this.files.delete(oldest);
      this.bytes -= kept.bytes;
    }
    return file;
  }
}

/** Sends a kept file as the build's static files are sent: with its ETag, in the encoding the client prefers. */
export function send(file: GeneratedFile, req: IncomingMessage, res: ServerResponse): void {
  const headers: OutgoingHttpHeaders = { ...file.headers, etag: file.etag, vary: "Accept-Encoding" };
  const tags = req.headers["if-none-match"]?.split(",").map((tag) => tag.trim());
  if (tags?.some((tag) => tag === "*" || tag === file.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"], Object.keys(file.encoded) as Encoding[]);
  const body = encoding ? file.encoded[encoding]! : file.body;
  if (encoding) headers["content-encoding"] = encoding;
  headers["content-length"] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}
