import { EventEmitter } from "node:events";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "./lib/db.server";
import { DocumentOnlyProvider } from "./lib/document-only";
import { NonceProvider } from "./lib/nonce";
import { startHousekeeping } from "./lib/housekeeping.server";
import { cachedPage, cachedResponse, keepPage, pageCacheKey } from "./lib/page-cache.server";
import { isDatabaseUnavailable } from "../server/db/unavailable";
import { log } from "../server/log";
import { applySecurityHeaders, createNonce, hardenResponse, isEmbeddable, isPrivatePage } from "./lib/security.server";

export const streamTimeout = 5_000;

/** The production server (server/http) calls this once it has drained, before it exits. */
export { closeDb as closeDatabase } from "./lib/db.server";

// Validate the environment when the server loads the build, so a bad setting stops the
// start with a message naming the variable instead of failing every request later.
config();
startHousekeeping();

const production = process.env.NODE_ENV === "production";

/**
 * Where React writes the document: it hands on what React wrote as one chunk each time React
 * flushes (the shell, then each part streamed after it) rather than one per 2 KB piece, and
 * straight into the response body, without a Node stream in between. Everything React writes
 * is already rendered and held in memory, so it does not wait for the reader (no backpressure);
 * if the reader goes away, React is told the destination closed and stops.
 */
class DocumentBody extends EventEmitter {
  readonly stream: ReadableStream<Uint8Array>;
  readonly writable = true;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private parts: Uint8Array[] = [];
  private size = 0;
  private done = false;
  /** Every chunk, kept when the whole document is wanted at the end (for the page cache). */
  private readonly whole: Uint8Array[] | undefined;

  constructor(private readonly onComplete?: (document: string) => void) {
    super();
    if (onComplete) this.whole = [];
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.done = true;
        this.emit("close");
      },
    });
  }

  write(chunk: Uint8Array | string): boolean {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.parts.push(bytes);
    this.size += bytes.byteLength;
    return true;
  }

  /** Called by React when it has written all it can for now. */
  flush(): void {
    if (this.size === 0 || this.done) return;
    const chunk = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.whole?.push(chunk);
    this.controller.enqueue(chunk);
  }

  end(): this {
    this.flush();
    if (!this.done) {
      this.done = true;
      this.controller.close();
      if (this.whole) this.onComplete?.(Buffer.concat(this.whole).toString());
    }
    return this;
  }

  destroy(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.controller.error(error);
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  const refused = methodRefused(responseStatusCode, remixContext);
  if (refused) return refused;
  if (loadContext?.databaseUnavailable && responseStatusCode >= 500) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  const documentOnly = loadContext?.documentOnly ?? {};
  // A guest's page rendered before from the same data is sent as it was; the loaders have run.
  const cacheKey = pageCacheKey(request, responseStatusCode, responseHeaders, remixContext, documentOnly);
  const cached = cacheKey ? cachedPage(cacheKey) : undefined;
  if (cached) return cachedResponse(request, cached, responseStatusCode, responseHeaders);
  const nonce = createNonce();
  // Every reader gets the whole document at once. Loaders fetch everything a page shows, so the
  // only parts that can suspend are components loaded as chunks of their own (the paywall's and
  // subscribers' forms); streamed, they would arrive hidden behind a script, which a reader
  // without JS never runs.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // A part that failed to render is left to the browser to retry: such a page is not kept.
    let renderFailed = false;
    // Set after the render starts; its callbacks may run before that, and then find no timer.
    // eslint-disable-next-line prefer-const
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const ready = () => {
      shellRendered = true;
      const body = new DocumentBody(cacheKey ? (document) => renderFailed || keepPage(cacheKey, document, nonce) : undefined);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      const { pathname } = new URL(request.url);
      if (production) applySecurityHeaders(responseHeaders, { nonce }, isEmbeddable(pathname));
      if (isPrivatePage(pathname)) responseHeaders.set("Cache-Control", "no-store");
      if (cacheKey) responseHeaders.set("X-Page-Cache", "miss");
      resolve(new Response(body.stream, { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentOnlyProvider value={documentOnly}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </DocumentOnlyProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          // The render is done: drop the timer, which would otherwise keep the whole render
          // (and its output) in memory for seconds after the response has been sent.
          clearTimeout(timeout);
          ready();
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          renderFailed = true;
          if (shellRendered) log.error("A part of the page failed to render", { error });
        },
      },
    );
    timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * A page whose path the service API also documents (GET /logout) refuses another method as the
 * API does (app/lib/api/handler.server.ts): its action answers 405 with Allow and a JSON error,
 * which goes out as it is instead of as the page.
 */
function methodRefused(status: number, remixContext: EntryContext): Response | undefined {
  if (status !== 405) return undefined;
  const { actionHeaders, actionData } = remixContext.staticHandlerContext;
  for (const [routeId, headers] of Object.entries(actionHeaders ?? {})) {
    const allow = headers.get("Allow");
    if (!allow) continue;
    const refused = Response.json(actionData?.[routeId], { status: 405, headers: { Allow: allow, "Cache-Control": "private, no-store" } });
    applySecurityHeaders(refused.headers);
    return refused;
  }
  return undefined;
}

/**
 * An error a loader, an action or rendering threw: logged here, with its stack, on the server
 * only. The reader gets the site's error page. A request the reader abandoned is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // The database is away (restarting, unreachable): the answer becomes a 503, "try again shortly".
  if (isDatabaseUnavailable(error)) context.databaseUnavailable = true;
  log.error(`${request.method} ${new URL(request.url).pathname} failed`, { error });
};

/** How long a reader (or a crawler) is asked to wait when the database is away. */
const RETRY_AFTER_SECONDS = 30;

export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  if (context.databaseUnavailable && response.status >= 500) {
    response = new Response(response.body, { status: 503, headers: response.headers });
    response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  return production ? hardenResponse(request, response) : response;
};
