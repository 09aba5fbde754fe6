// Which documents the guest-page cache (server/http/page-cache.ts, ADR 034) may keep and serve,
// and how a kept one is sent.
import type { EntryContext } from "@remix-run/node";
import { PageCache, pageKey, type CachedPage } from "~/server/http/page-cache";
import { preferredEncoding, type Encoding } from "~/server/http/static";
import { config } from "~/app/lib/context/db.server";
import type { DocumentOnly } from "./document-only";
import { applySecurityHeaders, isEmbeddable, isPrivatePage } from "./security.server";

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
 * The cache key of a guest's public page, or null when the page is not to be cached: anything
 * but a GET that rendered 200 from its loaders alone, a private page, a page that must not be
 * stored, or a signed-in reader's (whose name is on every page). The key is the URL, the build and
 * all the loader data: the reader's access to the article and their meter, text size, cart and
 * dismissed notices are in it, so one reader's page never reaches a reader who would see another.
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
  if (isPrivatePage(url.pathname) || /no-store/i.test(headers.get("Cache-Control") ?? "")) return null;
  if ((loaderData.root as { user?: unknown } | undefined)?.user !== null) return null;
  const data = dataText(loaderData);
  const rest = dataText(documentOnly);
  return data === null || rest === null ? null : pageKey(context.manifest.version, url.pathname + url.search, data, rest);
}

export function cachedPage(key: string): CachedPage | undefined {
  return pageCache()?.get(key);
}

/** Keeps a page just rendered (without waiting for its compressed copies). */
export function keepPage(key: string, html: string, nonce: string): void {
  void pageCache()?.store(key, html, nonce);
}

/** A kept page as a response: this request's own headers (cookies included), the page's script hashes, its best encoding. */
export function cachedResponse(request: Request, page: CachedPage, statusCode: number, headers: Headers): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  applySecurityHeaders(headers, { scriptHashes: page.scriptHashes }, isEmbeddable(new URL(request.url).pathname));
  const available: Encoding[] = page.br && page.gzip ? ["br", "gzip"] : [];
  const encoding = preferredEncoding(request.headers.get("Accept-Encoding") ?? undefined, available);
  const body = encoding === "br" ? page.br! : encoding === "gzip" ? page.gzip! : page.html;
  if (encoding) headers.set("Content-Encoding", encoding);
  headers.append("Vary", "Accept-Encoding");
  headers.set("Content-Length", String(body.length));
  headers.set("X-Page-Cache", "hit");
  return new Response(new Uint8Array(body), { status: statusCode, headers });
}
