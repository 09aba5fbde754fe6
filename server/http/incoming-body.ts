import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * How long the rest of a body nobody read is dropped after the answer before the connection is
 * cut: long enough for a client still sending to see the answer, short enough that a client
 * cannot keep a process reading for ever.
 */
const LINGER_MS = 5_000;

/**
 * A request's body as a web stream that takes from the socket only what its reader asks for.
 * A reader that stops early (an action at its size limit) cancels it, and what it did not read
 * stays on the socket until lingerOnUnreadBody drops it. (`@remix-run/node`'s stream destroys the
 * request on cancel, which cuts the connection before the answer is sent.)
 */
export function incomingBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  /** Stops passing the body on; false when that had already happened. */
  const settle = () => {
    if (settled) return false;
    settled = true;
    req.off("data", onData);
    return true;
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      req.on("data", onData).pause();
      req.once("end", () => settle() && controller.close());
      req.once("close", () => !req.complete && settle() && controller.error(new Error("The client went away before its request ended")));
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Unhooking 'data' does not pause a flowing request: without this, the body would go on
      // being read and dropped, as fast as the client sends it, until the answer is ready.
      if (settle()) req.pause();
    },
  });
}

/**
 * Called just before the answer's headers go. When the request's body has not all arrived (an
 * action refused it at its size limit, or never read it), the connection stays open after the
 * answer even if the client asked to close it: a connection closed with data unread is reset,
 * and the client may lose the answer with it. The rest of the body is dropped as it arrives,
 * never kept, for at most LINGER_MS, then the connection is cut; once it has all arrived, a
 * client that asked to close has its connection closed.
 */
export function lingerOnUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const askedToClose = !res.shouldKeepAlive;
  res.shouldKeepAlive = true;
  const arrived = () => {
    if (askedToClose) req.socket.end();
  };
  res.once("finish", () => {
    if (req.complete) return arrived();
    req.removeAllListeners("data");
    req.resume();
    const cut = setTimeout(() => req.socket.destroy(), LINGER_MS);
    req.once("end", () => {
      clearTimeout(cut);
      arrived();
    });
    req.once("close", () => clearTimeout(cut));
  });
}
