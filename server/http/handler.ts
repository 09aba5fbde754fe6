import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The connection's own address; an IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d. */
export function remoteAddress(req: IncomingMessage): string | undefined {
  const address = req.socket.remoteAddress;
  return address?.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

/**
 * Hands each request to Remix as a Fetch Request and writes the Response back, streaming in
 * both directions. Loaders and actions get the client's address in their load context.
 */
export function remixHandler(build: ServerBuild, mode: string): NodeHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res) => {
    const controller = new AbortController();
    // Stop loaders and rendering when the client goes away before the answer is complete.
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const request = toFetchRequest(req, controller.signal);
    if (!request) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end("Bad Request");
      return;
    }
    const context: AppLoadContext = { clientAddress: remoteAddress(req) };
    await sendResponse(res, await handle(request, context), req.method === "HEAD");
  };
}

/** Null when the request line or Host header cannot make a URL (a proxy probe, a forged Host). */
function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Request | null {
  // Only origin-form targets ("/path?query"): an absolute or authority form would let the
  // client choose the URL's host.
  if (!req.url?.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(`http://${req.headers.host ?? "localhost"}${req.url}`);
  } catch {
    return null;
  }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
  } as RequestInit);
}

async function sendResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
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
  await pipeBody(response.body, res);
}

/**
 * Copies the body to the socket chunk by chunk, waiting while the socket's buffer is full
 * (a slow reader of a large file must not make the server hold the whole file in memory).
 * @remix-run/node's writeReadableStreamToWritable writes without waiting.
 */
async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  } finally {
    res.off("close", gone);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
