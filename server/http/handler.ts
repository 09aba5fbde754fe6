import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import { log } from "~/server/log";
import { foreignOriginAsCrossSite } from "./cross-site";
import { send, type GeneratedFiles } from "./generated-files";
import { incomingBody, lingerOnUnreadBody } from "./incoming-body";
import { hardenResponse, type HeaderSettings } from "./response-headers";
import { preferredEncoding } from "./static";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The build's own maker of each request's load context (app/lib/context), given what the server knows. */
export type GetLoadContext = (request: Request, known: AppLoadContext) => AppLoadContext;

/** The connection's own address; an IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d. */
export function remoteAddress(req: IncomingMessage): string | undefined {
  const address = req.socket.remoteAddress;
  return address?.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

/**
 * Hands each request to Remix as a Fetch Request and writes the Response back, streaming in
 * both directions and compressing text. Loaders and actions get the request's context (ADR 062),
 * made by the build from the client's address and the kind of request. A post from another site reaches the action as one (see cross-site.ts), since
 * Remix's own Origin check would answer it with an empty 500.
 */
export function remixHandler(
  build: ServerBuild,
  mode: string,
  headerSettings: HeaderSettings,
  getLoadContext: GetLoadContext,
  generated?: GeneratedFiles,
): NodeHandler {
  const handle = createRequestHandler(build, mode);
  const siteOrigin = new URL(headerSettings.siteUrl).origin;
  return async (req, res) => {
    // A drawn file (cover art) Remix has drawn once is sent from memory.
    const generatedKey = generated?.keyOf(req) ?? null;
    if (generatedKey && generated!.serve(generatedKey, req, res)) return;
    const controller = new AbortController();
    // Stop loaders and rendering when the client goes away before the answer is complete.
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const request = toFetchRequest(req, controller.signal);
    // Remix's data requests of before single fetch: Remix would answer with a warning and its
    // stack in the error log, for anyone to repeat. The site's own requests never make them.
    if (!request || new URL(request.url).searchParams.has("_data")) {
      const refused = new Response("Bad Request", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      lingerOnUnreadBody(req, res);
      await sendResponse(res, hardenResponse("/", refused, headerSettings), false, undefined);
      return;
    }
    const context = getLoadContext(request, { clientAddress: remoteAddress(req), documentRequest: isDocumentRequest(request) });
    const host = new URL(request.url).host;
    const ownOrigins = [siteOrigin, `http://${host}`, `https://${host}`];
    let response = await handle(foreignOriginAsCrossSite(request, ownOrigins), context);
    // A desk resource route (ADR 085) has no page of its own to refuse anyone without a role with:
    // its bare 404 becomes the page every other desk address gives them (ADR 072).
    if (isBareDeskRefusal(request, response)) {
      const page = deskNotFoundPage(request);
      response = await handle(page, getLoadContext(page, { clientAddress: remoteAddress(req), documentRequest: true }));
    }
    // Whatever route made it, every answer leaves with the security headers.
    const hardened = hardenResponse(new URL(request.url).pathname, response, headerSettings);
    const kept = generatedKey ? await generated!.keep(generatedKey, hardened) : null;
    if (kept) return send(kept, req, res);
    lingerOnUnreadBody(req, res);
    await sendResponse(res, hardened, req.method === "HEAD", req.headers["accept-encoding"]);
  };
}

/** A 404 without a body from a /desk address: a desk resource route's refusal. */
const isBareDeskRefusal = (request: Request, response: Response) =>
  response.status === 404 && response.body === null && /^\/desk\//.test(new URL(request.url).pathname);

/** A GET of a desk address that no route has, from the same client: the desk's ordinary 404 page. */
function deskNotFoundPage(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of ["content-type", "content-length", "transfer-encoding"]) headers.delete(name);
  return new Request(new URL("/desk/not-found", request.url), {
    method: request.method === "HEAD" ? "HEAD" : "GET",
    headers,
    signal: request.signal,
  });
}

/** A request Remix answers with a whole page (not a `.data` request, which it answers with data). */
const isDocumentRequest = (request: Request) => !new URL(request.url).pathname.endsWith(".data");

/**
 * A Host header as clients send one: a name or IPv4 address, or an IPv6 address in brackets,
 * then an optional port. Anything else (user info such as `127.0.0.1@evil.example`, spaces, an
 * empty value, which the URL parser would fill from the path) is refused.
 */
const VALID_HOST = /^(?:[A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Null when the request line or Host header cannot make a URL (a proxy probe, a forged Host). */
function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Request | null {
  // Only origin-form targets ("/path?query"): an absolute or authority form would let the
  // client choose the URL's host.
  if (!req.url?.startsWith("/")) return null;
  // HTTP/1.0 may leave Host out.
  const host = req.headers.host ?? "localhost";
  if (!VALID_HOST.test(host)) return null;
  const headers = new Headers();
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  try {
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    return new Request(`http://${host}${req.url}`, {
      method: req.method,
      headers,
      signal,
      ...(hasBody ? { body: incomingBody(req), duplex: "half" } : {}),
    } as RequestInit);
  } catch {
    return null;
  }
}

/** Text worth compressing: pages, their data, feeds, JSON and SVG. */
const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|atom\+xml|javascript)|image\/svg\+xml)/;

type Encoding = "br" | "gzip";

/** How a text response is compressed for this client, if it is. */
function encodingFor(response: Response, acceptEncoding: string | undefined): Encoding | undefined {
  if (!response.body || response.headers.has("content-encoding") || response.status === 206) return undefined;
  if (!COMPRESSIBLE.test(response.headers.get("content-type") ?? "")) return undefined;
  return preferredEncoding(acceptEncoding, ["br", "gzip"]);
}

/**
 * Brotli at quality 2: on a 47 kB page, about half of quality 4's time and a third of gzip 6's, for
 * 6 % more bytes than quality 4 (ADR 096). Kept pages are compressed harder, once, off the event loop.
 */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } };
const GZIP_OPTIONS = { level: 6 };

/**
 * A body of known length up to this size (every page: entry.server sends the whole document) is
 * read whole and compressed in one call on this thread. Streamed through zlib, it would go to
 * libuv's threads and back once per piece, and each return waits for this process's next turn
 * of the event loop, which under load is the time of every other request in it.
 */
const WHOLE_BODY_BYTES = 2 * 1024 * 1024;

async function sendResponse(res: ServerResponse, response: Response, head: boolean, acceptEncoding: string | undefined): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const encoding = head ? undefined : encodingFor(response, acceptEncoding);
  if (encoding) {
    headers["content-encoding"] = encoding;
    headers["vary"] = headers["vary"] ? `${headers["vary"]}, Accept-Encoding` : "Accept-Encoding";
    delete headers["content-length"];
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const length = Number(response.headers.get("content-length"));
  if (encoding && length > 0 && length <= WHOLE_BODY_BYTES) {
    const body = Buffer.from(await response.arrayBuffer());
    const compressed = encoding === "br" ? zlib.brotliCompressSync(body, BROTLI_OPTIONS) : zlib.gzipSync(body, GZIP_OPTIONS);
    headers["content-length"] = compressed.byteLength;
    res.writeHead(response.status, response.statusText || undefined, headers).end(compressed);
    return;
  }
  try {
    res.writeHead(response.status, response.statusText || undefined, headers);
  } catch (error) {
    // A header Node refuses to send (say, a character outside Latin-1): nothing was written yet.
    await response.body?.cancel();
    throw error;
  }
  if (!response.body || head) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const compressor =
    encoding === "br" ? zlib.createBrotliCompress(BROTLI_OPTIONS) : encoding === "gzip" ? zlib.createGzip(GZIP_OPTIONS) : undefined;
  if (compressor) {
    compressor.pipe(res);
    res.once("close", () => compressor.destroy());
  }
  await pipeBody(response.body, res, compressor);
}

/**
 * Copies the body to the socket chunk by chunk, waiting while the socket's buffer is full
 * (a slow reader of a large file must not make the server hold the whole file in memory).
 * @remix-run/node's writeReadableStreamToWritable writes without waiting.
 */
async function pipeBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  compressor?: zlib.BrotliCompress | zlib.Gzip,
): Promise<void> {
  const reader = body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  const sink = compressor ?? res;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      const room = sink.write(value);
      // Each chunk is what Remix or React flushed on purpose (a streamed part): send it now.
      compressor?.flush();
      if (!room) await drained(sink, res);
    }
    sink.end();
  } catch (error) {
    // The connection is cut: the reader's browser sees a broken page, or none if nothing was sent.
    log.error("The answer's body failed while being sent", { error, sent: res.headersSent });
    res.destroy(error as Error);
  } finally {
    res.off("close", gone);
  }
}

function drained(sink: NodeJS.WritableStream, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      sink.removeListener("drain", done);
      res.off("close", done);
      resolve();
    };
    sink.once("drain", done);
    res.once("close", done);
  });
}
