import { EventEmitter } from "node:events";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { config } from "./lib/context/db.server";
import { DocumentOnlyProvider, type DocumentOnly } from "./lib/http/document-only";
import { NonceProvider } from "./lib/http/nonce";
import { cachedPage, cachedResponse, keepPage, pageCacheKey } from "./lib/http/page-cache.server";
import type { ReaderParts } from "./lib/http/reader-parts.server";
import { layerForPage, pageMeter } from "./lib/http/analytics-layer";
import { scriptJson } from "./lib/http/script-json";
import { isDatabaseUnavailable } from "~/server/db/unavailable";
import { log } from "~/server/log";
import { applyPrivacyHeaders, applySecurityHeaders, createNonce, hardenResponse, isEmbeddable } from "./lib/http/security.server";

export const streamTimeout = 5_000;

/** The production server (server/http) calls this once it has drained, before it exits. */
export { closeDb as closeDatabase } from "./lib/context/db.server";
/** The production server (server/http) makes each request's context with this before Remix runs. */
export { getLoadContext } from "./lib/context/request-context.server";

// Validate the environment when the server loads the build, so a bad setting stops the
// start with a message naming the variable instead of failing every request later.
const { production } = config();

/**
 * Where React writes the document. The render has finished before React is given it (onAllReady),
 * so React writes the whole document and ends it in the same turn: the response is sent with its
 * length, and the server compresses it in one go instead of piece by piece on other threads.
 */
class DocumentCollector extends EventEmitter {
  readonly writable = true;
  private readonly parts: Uint8Array[] = [];

  constructor(
    private readonly onEnd: (document: Buffer) => void,
    private readonly onFail: (error: unknown) => void,
  ) {
    super();
  }

  write(chunk: Uint8Array | string): boolean {
    this.parts.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    return true;
  }

  end(): this {
    this.onEnd(scriptsInsideBody(Buffer.concat(this.parts)));
    return this;
  }

  destroy(error?: unknown): void {
    this.onFail(error ?? new Error("React stopped writing the document"));
  }
}

const DOCUMENT_END = Buffer.from("</body></html>");

/**
 * Remix renders the route data's scripts (its StreamTransfer) beside the document, so React writes
 * them after `</html>`, where HTML allows nothing (the Nu HTML Checker stops there; browsers move
 * them into the body). The document is whole here, so they go where browsers put them: at the end
 * of the body. The scripts themselves cannot contain the closing tags: they carry their data with
 * `<` escaped.
 */
function scriptsInsideBody(document: Buffer): Buffer {
  const end = document.lastIndexOf(DOCUMENT_END);
  if (end === -1 || end + DOCUMENT_END.length === document.length) return document;
  return Buffer.concat([document.subarray(0, end), document.subarray(end + DOCUMENT_END.length), DOCUMENT_END]);
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
  const fill = readerFill(loadContext?.requestContext?.readerParts, remixContext);
  // A page rendered before from the same data is sent as it was; the loaders have run.
  const cacheKey = pageCacheKey(request, responseStatusCode, responseHeaders, remixContext, documentOnly);
  const cached = cacheKey ? cachedPage(cacheKey) : undefined;
  if (cached) return cachedResponse(request, cached, responseStatusCode, responseHeaders, fill ?? ((document) => document));
  return readHandoffAhead(remixContext).then(() =>
    renderDocument(request, responseStatusCode, responseHeaders, remixContext, documentOnly, cacheKey, fill),
  );
}

/**
 * How a document with marks for the signed-in reader's own values gets them (ADR 096), or
 * undefined when the loaders marked none. The analytics script's layer carries the page's meter
 * figures, as the component that writes it does for a guest.
 */
function readerFill(
  parts: ReaderParts | undefined,
  remixContext: EntryContext,
): ((document: string, nonce?: string) => string) | undefined {
  if (!parts?.marked) return undefined;
  const layer = parts.value("analytics");
  const meter = pageMeter(Object.values(remixContext.staticHandlerContext.loaderData));
  const analyticsScript = layer === undefined ? undefined : scriptJson(layerForPage(layer, meter && parts.resolve(meter)));
  return (document, nonce) => parts.fill(document, { analyticsScript, nonce });
}

function renderDocument(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  documentOnly: DocumentOnly,
  cacheKey: string | null,
  fill: ((document: string) => string) | undefined,
): Promise<Response> {
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
      const { pathname } = new URL(request.url);
      const send = (rendered: Buffer) => {
        if (cacheKey && !renderFailed) keepPage(cacheKey, rendered.toString(), nonce, fill !== undefined);
        const document = fill ? Buffer.from(fill(rendered.toString())) : rendered;
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        if (production) applySecurityHeaders(responseHeaders, { nonce }, isEmbeddable(pathname));
        applyPrivacyHeaders(pathname, responseStatusCode, responseHeaders);
        if (cacheKey) responseHeaders.set("X-Page-Cache", "miss");
        responseHeaders.set("Content-Length", String(document.byteLength));
        resolve(new Response(new Uint8Array(document), { headers: responseHeaders, status: responseStatusCode }));
      };
      pipe(new DocumentCollector(send, reject));
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
    timeout = setTimeout(() => {
      // The render's own errors are logged as they come; a render cut off for taking too long is
      // answered 500 as well, and the log must say why.
      log.error(
        `${request.method} ${new URL(request.url).pathname}: the page took over ${(streamTimeout + 1000) / 1000} s to render and was cut off`,
      );
      abort();
    }, streamTimeout + 1000);
  });
}

/**
 * Reads the route data for hydration before the render, so that the render writes it without
 * suspending (see the @remix-run/react patch, ADR 052). The encoding holds no promises (loaders
 * return plain data), so its chunks are there within this turn of the event loop.
 */
async function readHandoffAhead(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream) return;
  const reader = stream.getReader();
  const chunks: ReadableStreamReadResult<Uint8Array>[] = [];
  for (let result = await reader.read(); ; result = await reader.read()) {
    chunks.push(result);
    if (result.done) break;
  }
  let next = 0;
  const readHeld = () => chunks[next++] ?? { done: true, value: undefined };
  const held = { getReader: () => ({ readHeld, read: async () => readHeld() }) };
  Object.defineProperty(context, "serverHandoffStream", { value: held, configurable: true, enumerable: false });
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
