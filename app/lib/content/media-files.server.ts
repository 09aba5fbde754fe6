import fs from "node:fs";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { parseByteRange } from "~/server/http/byte-range";
import { applySecurityHeaders } from "~/app/lib/http/security.server";

/**
 * A media file, whole or the byte range the browser asks for: players seek by asking for ranges,
 * and Chromium will not seek in a file served without them.
 */
export async function mediaFileResponse(request: Request, file: string, contentType: string, cacheControl: string): Promise<Response> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) throw new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": cacheControl,
    "Last-Modified": stat.mtime.toUTCString(),
  });
  applySecurityHeaders(headers);
  const range = parseByteRange(request.headers.get("Range"), stat.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: stat.size - 1 };
  headers.set("Content-Length", String(end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${stat.size}`);
  const body = request.method === "HEAD" ? null : createReadableStreamFromReadable(fs.createReadStream(file, { start, end }));
  return new Response(body, { status: range ? 206 : 200, headers });
}
