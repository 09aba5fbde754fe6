// The guest-page cache (ADR 034): rendered documents kept in memory, each under a key that names
// everything its rendering read (the URL and the data its loaders returned), so a page is never
// served to a reader whose data would render it differently. Loaders still run on every request;
// only React's rendering is skipped.
import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export interface CachedPage {
  /** The document with its nonce attributes taken out: a hit allows its scripts by hash. */
  html: Buffer;
  /** Filled in once compressed (off the event loop, after the first hit); until then a hit is compressed as it is sent. */
  br?: Buffer;
  gzip?: Buffer;
  /** CSP sources ('sha256-…') for the document's inline scripts. */
  scriptHashes: string[];
  /**
   * A document with marks for its reader's own values (ADR 096), its nonce among them: each hit
   * is filled in and compressed as it is sent, so it has no hashes and no compressed copies.
   */
  marked: boolean;
}

interface Entry {
  page: CachedPage;
  storedAt: number;
  bytes: number;
  /** The compressed copies being made, from the page's first hit. */
  compressing?: Promise<void>;
}

export interface PageCacheOptions {
  maxBytes: number;
  maxAgeMs: number;
  now?: () => number;
}

/** A key for a page: a digest of every part that decides what it renders. */
export function pageKey(...parts: string[]): string {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("base64url");
}

const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** CSP hash sources for every inline script of a document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`'sha256-${crypto.createHash("sha256").update(body!).digest("base64")}'`);
  }
  return [...hashes];
}

/** Least recently used pages, bounded in bytes (document and compressed copies) and in age. */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }

  /**
   * The page kept under `key`, if any. Its first hit has brotli and gzip copies made in the
   * background: a page nobody asks for again (a meter position, a one-off query) never costs
   * them. Until they are made, a hit is compressed as it is sent.
   */
  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt > this.options.maxAgeMs) {
      this.remove(key, entry);
      return undefined;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (!entry.page.marked) entry.compressing ??= this.compress(key, entry);
    return entry.page;
  }

  /** Resolves once the copies of the page under `key` are made, or at once if none are under way. */
  async settled(key: string): Promise<void> {
    await this.entries.get(key)?.compressing;
  }

  /**
   * Keeps a rendered document. Its nonce attributes are removed: a hit gets a CSP with the
   * scripts' hashes instead, so that no two responses share a nonce. A marked document keeps
   * them, with `nonceMark` for the value, to be given each hit's own nonce.
   */
  store(key: string, rendered: string, nonce: string, nonceMark?: string): void {
    const text = rendered.replaceAll(` nonce="${nonce}"`, nonceMark ? ` nonce="${nonceMark}"` : "");
    const page: CachedPage = {
      html: Buffer.from(text),
      scriptHashes: nonceMark ? [] : inlineScriptHashes(text),
      marked: Boolean(nonceMark),
    };
    if (page.html.length > this.options.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    const entry: Entry = { page, storedAt: this.now(), bytes: page.html.length };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.evict();
  }

  private compress(key: string, entry: Entry): Promise<void> {
    const { page } = entry;
    return Promise.all([
      brotli(page.html, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.html.length },
      }),
      gzip(page.html, { level: 6 }),
    ]).then(
      ([br, gz]) => {
        // Evicted or replaced meanwhile: nothing to add to.
        if (this.entries.get(key) !== entry) return;
        page.br = br;
        page.gzip = gz;
        entry.bytes += br.length + gz.length;
        this.bytes += br.length + gz.length;
        this.evict();
      },
      () => {},
    );
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes) return;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
