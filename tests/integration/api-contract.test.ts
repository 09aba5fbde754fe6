import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "../helpers/api-contract";
import { startBuiltServer, type RunningServer } from "../helpers/server";

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
    const paths = Object.keys(contract.document.paths);
    for (const path of [
      "/service/user/quota",
      "/service/user/ascend-quota",
      "/service/search/auto-suggest",
      "/service/commerce/state-province/{country}",
    ])
      expect(paths).toContain(path);
  });

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
    for (const [path, method] of contract.operations().filter(([, m]) => m !== "get" && m !== "head")) {
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
      const res = await request(path, "PATCH", { headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(res.status, path).toBe(405);
      const allow = (res.headers.get("Allow") ?? "").split(", ").map((m) => m.toLowerCase());
      for (const m of methods) expect(allow, path).toContain(m);
      expect(((await res.json()) as { code: string }).code).toBe("method_not_allowed");
    }
  });
});
