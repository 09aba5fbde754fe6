import fs from "node:fs";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import path from "node:path";

/** Hashed build output: the name changes whenever the content does. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Other public files (favicon and the like) keep their names across releases. */
const SHORT = "public, max-age=3600";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".pdf": "application/pdf",
  ".vtt": "text/vtt; charset=utf-8",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

/** Precompressed siblings (x.js.br, x.js.gz), in the order they are preferred. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

export type Encoding = (typeof ENCODINGS)[number]["name"];

interface Variant {
  file: string;
  size: number;
}

interface StaticFile extends Variant {
  type: string;
  cacheControl: string;
  etag: string;
  lastModified: string;
  mtimeSeconds: number;
  encoded: Partial<Record<Encoding, Variant>>;
}

/**
 * Serves the files of the client build. The folder is read once at start into a table keyed by
 * URL path, so only files that exist in the build can be sent: a path that is not a key (dot
 * segments, encoded slashes, anything outside the folder) is simply not a static file.
 * Returns false when the request is not for one of them.
 */
export function staticFiles(
  root: string,
  publicPath = "/",
  /** Headers every file is sent with (the site's security headers). */
  common: OutgoingHttpHeaders = {},
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const files = indexFolder(root, publicPath);
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const file = files.get(pathnameOf(req.url ?? ""));
    if (!file) return false;
    send(req, res, file, common);
    return true;
  };
}

function pathnameOf(target: string): string {
  const end = target.search(/[?#]/);
  const raw = end === -1 ? target : target.slice(0, end);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function indexFolder(root: string, publicPath: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!fs.existsSync(root)) return files;
  const names = new Set(fs.readdirSync(root, { recursive: true, encoding: "utf8" }).map((name) => name.split(path.sep).join("/")));
  const assetsPrefix = `${publicPath}assets/`;
  for (const name of names) {
    const full = path.join(root, name);
    const stat = fs.statSync(full);
    if (!stat.isFile()) continue;
    // A compressed sibling is served in place of its original, never on its own.
    if (ENCODINGS.some(({ suffix }) => name.endsWith(suffix) && names.has(name.slice(0, -suffix.length)))) continue;
    const urlPath = publicPath + name;
    const encoded: StaticFile["encoded"] = {};
    for (const { name: encoding, suffix } of ENCODINGS) {
      if (!names.has(name + suffix)) continue;
      encoded[encoding] = { file: full + suffix, size: fs.statSync(full + suffix).size };
    }
    files.set(urlPath, {
      file: full,
      size: stat.size,
      type: TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
      cacheControl: urlPath.startsWith(assetsPrefix) ? IMMUTABLE : SHORT,
      etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      lastModified: stat.mtime.toUTCString(),
      mtimeSeconds: Math.floor(stat.mtimeMs / 1000),
      encoded,
    });
  }
  return files;
}

function send(req: IncomingMessage, res: ServerResponse, file: StaticFile, common: OutgoingHttpHeaders): void {
  const headers: OutgoingHttpHeaders = {
    ...common,
    "content-type": file.type,
    "cache-control": file.cacheControl,
    etag: file.etag,
    "last-modified": file.lastModified,
    "x-content-type-options": "nosniff",
  };
  const encodings = Object.keys(file.encoded) as Encoding[];
  if (encodings.length > 0) headers.vary = "Accept-Encoding";
  if (notModified(req, file)) {
    res.writeHead(304, headers).end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"], encodings);
  const variant = encoding ? file.encoded[encoding]! : file;
  if (encoding) headers["content-encoding"] = encoding;
  headers["content-length"] = variant.size;
  res.writeHead(200, headers);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = fs.createReadStream(variant.file);
  stream.on("error", (error) => res.destroy(error));
  res.once("close", () => stream.destroy());
  stream.pipe(res);
}

/** RFC 9110: If-None-Match wins over If-Modified-Since. */
function notModified(req: IncomingMessage, file: StaticFile): boolean {
  const noneMatch = req.headers["if-none-match"];
  if (noneMatch !== undefined) {
    const tags = noneMatch.split(",").map((tag) => tag.trim());
    return tags.includes("*") || tags.some((tag) => tag.replace(/^W\//, "") === file.etag.replace(/^W\//, ""));
  }
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return !Number.isNaN(since) && file.mtimeSeconds <= since / 1000;
}

/** The first encoding, in our order of preference, that the client accepts with a q above 0. */
export function preferredEncoding(header: string | undefined, available: Encoding[]): Encoding | undefined {
  if (!header || available.length === 0) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name!.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const wildcard = accepted.get("*");
  return ENCODINGS.map((e) => e.name).find((name) => available.includes(name) && (accepted.get(name) ?? wildcard ?? 0) > 0);
}
