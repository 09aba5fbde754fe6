import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBodyBytes, readFormBody } from "~/app/lib/forms/read-body.server";
import { incomingBody } from "~/server/http/incoming-body";

const CHUNK = 16 * 1024;

/** A chunked post that never ends, counting what its reader took. */
function endlessPost(contentType = "application/x-www-form-urlencoded") {
  const taken = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      taken.bytes += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
    },
  });
  const request = new Request("http://localhost/sign-in", {
    method: "POST",
    headers: { "Content-Type": contentType },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, taken };
}

const formPost = (body: string) =>
  new Request("http://localhost/sign-in", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });

describe("reading a request's body", () => {
  it("stops at the limit on the bytes received when no Content-Length says how many will come", async () => {
    const { request, taken } = endlessPost();
    expect(await readBodyBytes(request, 64 * 1024)).toBe("too-large");
    // The stream may have one chunk waiting beyond the one that went over.
    expect(taken.bytes).toBeLessThanOrEqual(64 * 1024 + 2 * CHUNK);
  });

  it("refuses a declared length over the limit without reading any of it", async () => {
    const { request, taken } = endlessPost();
    const declared = new Request(request, { headers: { "Content-Length": String(1024 * 1024), "Content-Type": "text/plain" } });
    expect(await readBodyBytes(declared, 64 * 1024)).toBe("too-large");
    expect(taken.bytes).toBeLessThanOrEqual(CHUNK);
  });

  it("reads a form of up to the field limit, and refuses one field more", async () => {
    const form = await readFormBody(formPost("a=1&".repeat(1000)), { maxBytes: 64 * 1024, maxFields: 1000 });
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).getAll("a")).toHaveLength(1000);
    expect(await readFormBody(formPost("a=1&".repeat(1001)), { maxBytes: 64 * 1024, maxFields: 1000 })).toBe("too-many-fields");
    expect(await readFormBody(endlessPost().request, { maxBytes: 64 * 1024, maxFields: 1000 })).toBe("too-large");
    expect(await readFormBody(endlessPost("text/plain").request, { maxBytes: 8 * CHUNK, maxFields: 1000 })).toBe("too-large");
    const notAForm = new Request("http://localhost/", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "a=1" });
    expect(await readFormBody(notAForm, { maxBytes: 64 * 1024, maxFields: 1000 })).toBe("unreadable");
  });
});

describe("a request's body on the production server", () => {
  it("is no longer taken off the connection once its reader stops at the limit", async () => {
    const refused = new Promise<{ result: unknown; flowing: boolean | null }>((resolve) => {
      const server = http.createServer(async (req, res) => {
        const request = new Request("http://localhost/sign-in", { method: "POST", body: incomingBody(req), duplex: "half" } as RequestInit);
        const result = await readBodyBytes(request, 64 * 1024);
        // Until the answer goes, the client waits on the connection instead of being read and ignored.
        resolve({ result, flowing: req.readableFlowing });
        res.statusCode = 413;
        res.end();
        server.close();
        server.closeAllConnections();
      });
      server.listen(0, "127.0.0.1", () => {
        const client = http.request({
          port: (server.address() as AddressInfo).port,
          method: "POST",
          headers: { "Transfer-Encoding": "chunked" },
        });
        client.on("error", () => {});
        const pump = () => {
          while (!client.destroyed) if (!client.write(new Uint8Array(CHUNK).fill(0x61))) return void client.once("drain", pump);
        };
        pump();
      });
    });
    expect(await refused).toEqual({ result: "too-large", flowing: false });
  });
});

describe("request bodies in app code", () => {
  it("are read only through app/lib/forms/read-body.server, which counts what arrives", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.server\.tsx?$|routes\/.*\.tsx?$/.test(file) && file !== path.join("app", "lib", "forms", "read-body.server.ts")) {
          const source = fs.readFileSync(file, "utf8");
          if (/request\.(formData|text|json|arrayBuffer|blob)\(\)|request\.body\b/.test(source)) offenders.push(file);
        }
      }
    };
    walk("app");
    expect(offenders).toEqual([]);
  });
});
