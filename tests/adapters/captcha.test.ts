import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCaptcha } from "~/server/adapters/captcha";
import { log } from "~/server/log";

const SECRET = "test-secret-6Lc";
const MIN_SCORE = 0.5;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The siteverify protocol: a form-encoded POST answered with JSON, one canned answer per token. */
function startSiteverify(): Promise<{
  server: Server;
  url: string;
  requests: URLSearchParams[];
  contentTypes: string[];
}> {
  const requests: URLSearchParams[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (req, res) => {
    const form = new URLSearchParams(await readBody(req));
    requests.push(form);
    contentTypes.push(req.headers["content-type"] ?? "");
    const json = (body: object) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    const now = new Date().toISOString();

    if (req.method !== "POST") return void res.writeHead(405).end();
    if (form.get("secret") !== SECRET) return json({ success: false, "error-codes": ["invalid-input-secret"] });
    switch (form.get("response")) {
      case "good-token":
        return json({ success: true, score: 0.9, action: "register", challenge_ts: now, hostname: "localhost" });
      case "borderline-token":
        return json({ success: true, score: MIN_SCORE, action: "register", challenge_ts: now, hostname: "localhost" });
      case "low-score-token":
        return json({ success: true, score: 0.1, action: "register", challenge_ts: now, hostname: "localhost" });
      case "wrong-action-token":
        return json({ success: true, score: 0.9, action: "login", challenge_ts: now, hostname: "localhost" });
      case "server-error-token":
        return void res.writeHead(500).end("internal error");
      case "not-json-token":
        return void res.writeHead(200, { "content-type": "text/html" }).end("<html>maintenance</html>");
      case "slow-token":
        // Never answers: only the adapter's own time-out can end the wait.
        return;
      default:
        return json({ success: false, "error-codes": ["invalid-input-response"] });
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`, requests, contentTypes });
    }),
  );
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/siteverify`;
}

describe("captcha against a siteverify server", () => {
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let warnings: string[];

  beforeAll(async () => {
    siteverify = await startSiteverify();
  });

  afterAll(async () => {
    siteverify.server.closeAllConnections();
    await new Promise<void>((resolve) => siteverify.server.close(() => resolve()));
  });

  beforeEach(() => {
    siteverify.requests.length = 0;
    siteverify.contentTypes.length = 0;
    warnings = [];
    vi.spyOn(log, "warn").mockImplementation((line: string) => void warnings.push(line));
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  // A time-out a loaded machine's loopback answer never reaches; the slow-service test sets its own.
  const enabled = (overrides: { secret?: string; verifyUrl?: string; timeoutMs?: number } = {}) =>
    createCaptcha({
      secret: SECRET,
      siteKey: "site-key-6Lc",
      scriptUrl: "http://127.0.0.1/recaptcha.js",
      verifyUrl: siteverify.url,
      minScore: MIN_SCORE,
      timeoutMs: 30_000,
      ...overrides,
    });

  it("is enabled by a secret and exposes the site key and script for the form", () => {
    const captcha = enabled();
    expect(captcha.enabled).toBe(true);
    expect(captcha.siteKey).toBe("site-key-6Lc");
    expect(captcha.scriptUrl).toBe("http://127.0.0.1/recaptcha.js");
  });

  it("accepts a good token, sending secret, token and visitor address as a form", async () => {
    await expect(enabled().verify("good-token", "register", "203.0.113.7")).resolves.toEqual({ ok: true });
    expect(siteverify.contentTypes[0]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(siteverify.requests[0]!)).toEqual({
      secret: SECRET,
      response: "good-token",
      remoteip: "203.0.113.7",
    });
  });

  it("leaves remoteip out when the visitor's address is unknown", async () => {
    await expect(enabled().verify("good-token", "register")).resolves.toEqual({ ok: true });
    expect(siteverify.requests[0]!.has("remoteip")).toBe(false);
  });

  it("accepts a score exactly at the minimum", async () => {
    await expect(enabled().verify("borderline-token", "register")).resolves.toEqual({ ok: true });
  });

  it("reports a missing or blank token without asking the service", async () => {
    const captcha = enabled();
    for (const token of [undefined, null, "", "   "]) {
      await expect(captcha.verify(token, "register")).resolves.toEqual({ ok: false, reason: "missing" });
    }
    expect(siteverify.requests).toHaveLength(0);
  });

  it("rejects a token scored below the minimum", async () => {
    await expect(enabled().verify("low-score-token", "register")).resolves.toEqual({ ok: false, reason: "rejected" });
  });

  it("rejects a token issued for a different action", async () => {
    await expect(enabled().verify("wrong-action-token", "register")).resolves.toEqual({
      ok: false,
      reason: "rejected",
    });
  });

  it("rejects a token the service does not recognise", async () => {
    await expect(enabled().verify("forged-token", "register")).resolves.toEqual({ ok: false, reason: "rejected" });
  });

  it("rejects every token when our secret is wrong", async () => {
    await expect(enabled({ secret: "stale-secret" }).verify("good-token", "register")).resolves.toEqual({
      ok: false,
      reason: "rejected",
    });
  });

  it("reports the service unavailable on a 500, and logs it", async () => {
    await expect(enabled().verify("server-error-token", "register")).resolves.toEqual({
      ok: false,
      reason: "unavailable",
    });
    expect(warnings).toEqual(["captcha: verification unavailable: siteverify answered 500"]);
  });

  it("reports the service unavailable when it answers something other than JSON", async () => {
    await expect(enabled().verify("not-json-token", "register")).resolves.toEqual({ ok: false, reason: "unavailable" });
    expect(warnings).toHaveLength(1);
  });

  it("gives up on a service that does not answer, after its time-out", async () => {
    await expect(enabled({ timeoutMs: 200 }).verify("slow-token", "register")).resolves.toEqual({ ok: false, reason: "unavailable" });
    expect(warnings).toEqual(["captcha: verification unavailable: siteverify timed out"]);
  });

  it("reports the service unavailable when nothing listens", async () => {
    const captcha = enabled({ verifyUrl: await closedPortUrl() });
    await expect(captcha.verify("good-token", "register")).resolves.toEqual({ ok: false, reason: "unavailable" });
    expect(warnings[0]).toMatch(/ECONNREFUSED/);
  });

  it("without a secret is disabled and lets every submission through without contacting the service", async () => {
    const captcha = createCaptcha({ siteKey: "site-key-6Lc", verifyUrl: siteverify.url, minScore: MIN_SCORE });
    expect(captcha.enabled).toBe(false);
    expect(captcha.siteKey).toBeUndefined();
    expect(captcha.scriptUrl).toBeUndefined();
    await expect(captcha.verify(undefined, "register")).resolves.toEqual({ ok: true });
    await expect(captcha.verify("forged-token", "register")).resolves.toEqual({ ok: true });
    expect(siteverify.requests).toHaveLength(0);
  });

  it("treats a blank secret as none", () => {
    expect(createCaptcha({ secret: "  ", verifyUrl: siteverify.url, minScore: MIN_SCORE }).enabled).toBe(false);
  });
});
