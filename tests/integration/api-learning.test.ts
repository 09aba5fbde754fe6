import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiContract } from "~/tests/helpers/api-contract";
import { startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import type { RunningServer } from "~/tests/helpers/server";

// The learning group of the service API (spec 7: POST /api/hmm/course/link, GET
// /api/mindstone/userToken) against the production build and a real database, each answer
// checked against the published OpenAPI document.

const MINDSTONE_JWT_SECRET = "api-learning-tests-mindstone-secret-0123456789";
const COURSES = "/api/hmm/course/link";
const TOKEN = "/api/mindstone/userToken";

let site: ApiSite;
let server: RunningServer;
let contract: ApiContract;

beforeAll(async () => {
  site = await startApiSite("apilearn", { MINDSTONE_JWT_SECRET, RATE_LIMIT_PER_ACCOUNT: "1000" });
  ({ server, contract } = site);
}, 120_000);

afterAll(() => site?.stop());

describe("POST /api/hmm/course/link", () => {
  it("maps each course slug to its address on this site, the reading list the course follows, and an unknown slug to null", async () => {
    const { status, json } = await contract.call<Record<string, string | null>>(new Reader(server.url), "POST", COURSES, {
      body: { slugs: ["new-manager-essentials", "ai-adoption-foundations", "no-such-course"] },
    });
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(["ai-adoption-foundations", "new-manager-essentials", "no-such-course"]);
    expect(json["no-such-course"]).toBeNull();
    for (const [slug, list] of [
      ["new-manager-essentials", "Your First Years as a Manager"],
      ["ai-adoption-foundations", "Building the AI-Ready Company"],
    ] as const) {
      const url = new URL(json[slug]!);
      expect(url.origin, slug).toBe(server.url);
      // The address opens the course's reading list, its lessons numbered in order.
      const $ = cheerio.load(await (await fetch(url)).text());
      expect($("h1").text(), slug).toBe(list);
      expect($("main ol > li h2 a").length, slug).toBeGreaterThan(1);
    }
  });

  it("takes a form's repeated field as well as JSON", async () => {
    const res = await new Reader(server.url).request(COURSES, {
      form: new URLSearchParams([
        ["slugs", "finance-for-operating-managers"],
        ["slugs", "scaling-a-young-business"],
      ]),
    });
    const json = (await contract.check(COURSES, "post", res)) as Record<string, string>;
    expect(Object.keys(json).sort()).toEqual(["finance-for-operating-managers", "scaling-a-young-business"]);
    expect(Object.values(json).every((u) => u.startsWith(`${server.url}/reading-lists/`))).toBe(true);
  });

  it("refuses no slugs, a malformed one or too many with 400 and the field's error, and another site with 403", async () => {
    const guest = new Reader(server.url);
    for (const slugs of [undefined, [], ["Not A Slug"], [42], Array.from({ length: 51 }, (_, i) => `course-${i}`)]) {
      const { status, json } = await contract.call(guest, "POST", COURSES, { body: slugs === undefined ? {} : { slugs } });
      expect(status, JSON.stringify(slugs)).toBe(400);
      expect(json.code).toBe("invalid_input");
      expect(
        Object.keys(json.fields!).every((f) => f.startsWith("slugs")),
        JSON.stringify(json.fields),
      ).toBe(true);
    }
    const foreign = await contract.call(guest, "POST", COURSES, {
      body: { slugs: ["new-manager-essentials"] },
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe("cross_site");
  });
});

/** A JWT's parts, its signature checked with the secret the server was given. */
function verified(token: string, secret: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header, payload, signature] = token.split(".");
  const expected = crypto.createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  expect(crypto.timingSafeEqual(Buffer.from(signature!, "base64url"), expected)).toBe(true);
  const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  return { header: decode(header!), claims: decode(payload!) };
}

describe("GET /api/mindstone/userToken", () => {
  it("gives a subscriber a JWT signed with the configured secret, naming them, good for an hour", async () => {
    const r = await subscribe(await registeredReader(server.url));
    const id = (await contract.call(r, "GET", "/service/user/profile")).json.id;
    const before = Math.floor(Date.now() / 1000);
    const { status, json, res } = await contract.call<{ mindstoneJWT: string }>(r, "GET", TOKEN);
    const after = Math.ceil(Date.now() / 1000);
    expect(status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const { header, claims } = verified(json.mindstoneJWT, MINDSTONE_JWT_SECRET);
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    expect(claims.sub).toBe(id);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(claims.exp).toBe((claims.iat as number) + 3600);
  });

  it("answers 401 to a caller who is not signed in and 403 to a reader without a subscription", async () => {
    const out = await contract.call(new Reader(server.url), "GET", TOKEN);
    expect(out.status).toBe(401);
    expect(out.json.code).toBe("not_signed_in");
    const reader = await contract.call(await registeredReader(server.url), "GET", TOKEN);
    expect(reader.status).toBe(403);
    expect(reader.json.code).toBe("not_a_subscriber");
  });
});
