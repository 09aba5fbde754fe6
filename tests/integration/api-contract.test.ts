import { Validator } from "@seriousme/openapi-schema-validator";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "~/tests/helpers/api-contract";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// The service API as a client generated from its OpenAPI document meets it: the document is
// valid OpenAPI 3.1, every documented operation answers, and every answer is one it documents.
// Each endpoint's own behaviour is tested with its group (tests/integration/api-*.test.ts).

let server: RunningServer;
let contract: ApiContract;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" });
  contract = await ApiContract.load(server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** A documented path with its parameters filled with values no seed record has. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "zz");

const request = (path: string, method: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
  fetch(server.url + concrete(path), { method: method.toUpperCase(), redirect: "manual", ...init });

describe("the service API's contract", () => {
  it("publishes a valid OpenAPI 3.1 document listing the spec's endpoints", async () => {
    const result = await new Validator().validate(structuredClone(contract.document) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(contract.document.openapi).toBe("3.1.0");
    expect(Object.keys(contract.document.paths["/service/user/lists"]!).sort()).toEqual(["delete", "get"]);
    expect(Object.keys(contract.document.paths["/service/user/saves"]!).sort()).toEqual(["delete", "post"]);
    const paths = Object.keys(contract.document.paths);
    for (const path of [
      "/service/user/quota",
      "/service/user/ascend-quota",
      "/service/search/auto-suggest",
      "/service/commerce/state-province/{country}",
      "/service/user/register",
      "/service/components/article/{year}/{month}/{seo}",
      "/service/search",
      "/service/user/lists",
      "/service/user/saves",
      "/api/hmm/course/link",
      "/api/mindstone/userToken",
      "/api/recaptcha/enabled",
    ])
      expect(paths).toContain(path);
  });

  it("names, sums up and tags every operation, and passes Redocly's recommended lint without a warning", async () => {
    for (const [p, method] of contract.operations()) {
      const operation = contract.document.paths[p]![method] as unknown as { operationId?: string; summary?: string; tags?: string[] };
      expect(operation.operationId, `${method} ${p}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary?.length, `${method} ${p}`).toBeGreaterThan(10);
      expect(operation.tags?.length, `${method} ${p}`).toBe(1);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
    try {
      const file = path.join(dir, "openapi.json");
      fs.writeFileSync(file, JSON.stringify(contract.document));
      // The CLI prints a banner about Node versions on stderr; the JSON report is on stdout, and
      // it exits with 1 when it finds errors.
      const { stdout } = await promisify(execFile)(path.resolve("node_modules/.bin/redocly"), ["lint", "--format=json", file], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string }[];
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("answers every documented operation, for a caller with no cookie and no input, with an answer it documents", async () => {
    expect(contract.operations().length).toBeGreaterThan(3);
    for (const [path, method] of contract.operations()) {
      const unsafe = method !== "get" && method !== "head";
      const res = await request(path, method, unsafe ? { headers: { "Content-Type": "application/json" }, body: "{}" } : {});
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      await contract.check(path, method, res);
    }
  });

  it("refuses a state-changing call another site started, with a JSON 403", async () => {
    // The Admin API is the exception: cookies never authenticate it, so another site gains nothing (ADR 074).
    const byKey = (path: string) => path.startsWith("/desk/api/");
    for (const [path, method] of contract.operations().filter(([p, m]) => m !== "get" && m !== "head" && !byKey(p))) {
      const res = await request(path, method, {
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
        body: "{}",
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await contract.check(path, method, res)) as { code: string }).code).toBe("cross_site");
    }
  });

  it("answers a method a path does not take with a JSON 405 naming the methods it does", async () => {
    for (const [path] of contract.operations()) {
      const methods = Object.keys(contract.document.paths[path]!);
      const unused = ["PATCH", "PUT"].find((m) => !methods.includes(m.toLowerCase()))!;
      const res = await request(path, unused, { headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(res.status, path).toBe(405);
      const allow = (res.headers.get("Allow") ?? "").split(", ").map((m) => m.toLowerCase());
      for (const m of methods) expect(allow, path).toContain(m);
      expect(((await res.json()) as { code: string }).code).toBe("method_not_allowed");
    }
  });
});
