// Which documents the guest-page cache (server/http/page-cache.ts, ADR 034) may keep and serve,
// and how a kept one is sent.
import type { EntryContext } from "@remix-run/node";
import { PageCache, pageKey, type CachedPage } from "~/server/http/page-cache";
import { preferredEncoding, type Encoding } from "~/server/http/static";
import { config } from "~/app/lib/context/db.server";
import type { DocumentOnly } from "./document-only";
import { NONCE_MARK } from "./reader-parts.server";
import { applySecurityHeaders, createNonce, isEmbeddable, isPrivatePage } from "./security.server";

let cache: PageCache | null | undefined;

function pageCache(): PageCache | null {
  if (cache === undefined) {
    const { production, PAGE_CACHE_MB, PAGE_CACHE_SECONDS } = config();
    cache =
      production && PAGE_CACHE_MB > 0
        ? new PageCache({ maxBytes: PAGE_CACHE_MB * 1024 * 1024, maxAgeMs: PAGE_CACHE_SECONDS * 1000 })
        : null;
  }
  return cache;
}

/** True when documents may be kept (in production, unless PAGE_CACHE_MB is 0). */
export const pageCacheOn = () => pageCache() !== null;

/**
 * Loader data as text, for the key. Maps, sets and big integers are spelled out (JSON would make
 * every map `{}`, and two pages one key); a promise or function cannot be, and the page is not cached.
 */
function dataText(data: unknown): string | null {
  try {
    return JSON.stringify(data, (_, value: unknown) => {
      if (value instanceof Map) return { "(map)": [...value] };
      if (value instanceof Set) return { "(set)": [...value] };
      if (typeof value === "bigint") return `${value}n`;
      if (typeof value === "function" || value instanceof Promise) throw new Error("not data");
      return value;
    });
  } catch {
    return null;
  }
}

/**
 * The cache key of a public page, or null when the page is not to be cached: anything but a GET
 * that rendered 200 from its loaders alone, a private page, a desk page, or a page that must not
 * be stored. The key is the URL, the build and all the loader data: the reader's access to the
 * article and their meter, text size, cart and dismissed notices are in it, so one reader's page
 * never reaches a reader who would see another. A signed-in reader's name and data layer are
 * marks in that data, the same for every reader (ADR 096), and filled in for each response.
 * What loaders gave the render alone (an article's body, ADR 036) is part of the key too.
 */
export function pageCacheKey(
  request: Request,
  statusCode: number,
  headers: Headers,
  context: EntryContext,
  documentOnly: DocumentOnly,
): string | null {
  if (!pageCache() || (request.method !== "GET" && request.method !== "HEAD") || statusCode !== 200) return null;
  const { loaderData, actionData, errors } = context.staticHandlerContext;
  if (actionData || errors) return null;
  const url = new URL(request.url);
  if (isPrivatePage(url.pathname) || /^\/desk(?:[/.]|$)/.test(url.pathname) || /no-store/i.test(headers.get("Cache-Control") ?? ""))
    return null;
  const data = dataText(loaderData);
  const rest = dataText(documentOnly);
  return data === null || rest === null ? null : pageKey(context.manifest.version, url.pathname + url.search, data, rest);
}

export function cachedPage(key: string): CachedPage | undefined {
  return pageCache()?.get(key);
}

/** Keeps a page just rendered (without waiting for its compressed copies); a marked one keeps its marks. */
export function keepPage(key: string, html: string, nonce: string, marked: boolean): void {
  void pageCache()?.store(key, html, nonce, marked ? NONCE_MARK : undefined);
}

/**
 * A kept page as a response: this request's own headers (cookies included), the page's script
 * hashes, its best encoding. A marked page is filled in with this reader's values and a new
 * nonce, and left to the server to compress.
 */
export function cachedResponse(
  request: Request,
  page: CachedPage,
  statusCode: number,
  headers: Headers,
  fill: (document: string, nonce: string) => string,
): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  const embeddable = isEmbeddable(new URL(request.url).pathname);
  headers.set("X-Page-Cache", "hit");
  if (page.marked) {
    const nonce = createNonce();
    const filled = Buffer.from(fill(page.html.toString(), nonce));
    applySecurityHeaders(headers, { nonce }, embeddable);
    headers.set("Content-Length", String(filled.length));
    return new Response(new Uint8Array(filled), { status: statusCode, headers });
  }
  applySecurityHeaders(headers, { scriptHashes: page.scriptHashes }, embeddable);
  const available: Encoding[] = page.br && page.gzip ? ["br", "gzip"] : [];
  const encoding = preferredEncoding(request.headers.get("Accept-Encoding") ?? undefined, available);
  const body = encoding === "br" ? page.br! : encoding === "gzip" ? page.gzip! : page.html;
  if (encoding) headers.set("Content-Encoding", encoding);
  headers.append("Vary", "Accept-Encoding");
  headers.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body), { status: statusCode, headers });
}
