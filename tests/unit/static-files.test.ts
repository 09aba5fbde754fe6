import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remoteAddress } from "~/server/http/handler";
import { preferredEncoding, staticFiles } from "~/server/http/static";

// Precompressed siblings (x.js.br, x.js.gz) are chosen by the client's Accept-Encoding; the
// client build does not produce them yet, so these run against a folder made here.

const source = "export const greeting = 'hello';\n".repeat(200);
let root: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "static-"));
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets/app-1a2b.js"), source);
  fs.writeFileSync(path.join(root, "assets/app-1a2b.js.br"), zlib.brotliCompressSync(source));
  fs.writeFileSync(path.join(root, "assets/app-1a2b.js.gz"), zlib.gzipSync(source));
  fs.writeFileSync(path.join(root, "robots.txt"), "User-agent: *\n");
  const serve = staticFiles(root, "/");
  server = http.createServer((req, res) => {
    if (!serve(req, res)) res.writeHead(404).end("not a static file");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

/** The raw bytes and headers, undecoded (fetch would decompress them). */
function get(target: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + target, { headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("precompressed files", () => {
  it("sends the brotli sibling to a client that accepts brotli", async () => {
    const res = await get("/assets/app-1a2b.js", "gzip, deflate, br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(source);
  });

  it("sends gzip to a client that accepts only gzip, or refuses brotli", async () => {
    for (const header of ["gzip", "br;q=0, gzip;q=0.8"]) {
      const res = await get("/assets/app-1a2b.js", header);
      expect(res.headers["content-encoding"], header).toBe("gzip");
      expect(zlib.gunzipSync(res.body).toString()).toBe(source);
    }
  });

  it("sends the file as it is to a client that accepts no encoding", async () => {
    for (const header of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const res = await get("/assets/app-1a2b.js", header);
      expect(res.headers["content-encoding"], header).toBeUndefined();
      expect(res.body.toString()).toBe(source);
    }
  });

  it("does not serve a compressed sibling under its own name, nor a file without siblings with Vary", async () => {
    expect((await get("/assets/app-1a2b.js.br", "br")).status).toBe(404);
    const robots = await get("/robots.txt", "br");
    expect(robots.headers["content-encoding"]).toBeUndefined();
    expect(robots.headers.vary).toBeUndefined();
    expect(robots.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("reads q-values and the wildcard", () => {
    expect(preferredEncoding("*", ["br", "gzip"])).toBe("br");
    expect(preferredEncoding("*;q=0, gzip", ["br", "gzip"])).toBe("gzip");
    expect(preferredEncoding("br", ["gzip"])).toBeUndefined();
  });
});

describe("the client's address", () => {
  it("drops the IPv4-mapped prefix of a dual-stack socket, and keeps IPv6 as it is", () => {
    const of = (address: string) => remoteAddress({ socket: { remoteAddress: address } } as http.IncomingMessage);
    expect(of("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(of("2001:db8::1")).toBe("2001:db8::1");
    expect(of("198.51.100.4")).toBe("198.51.100.4");
  });
});
