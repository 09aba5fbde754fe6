import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import type { ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startApiSite, type ApiSite } from "~/tests/helpers/api-site";
import type { RunningServer } from "~/tests/helpers/server";

// The links group of the service API (spec 7, integration/url/shorten) and the /s/{code} page
// route, against the production build and a real database: a short link leads only to a page of
// this site, the same page keeps its link, and each client address has its own limit.

const SHORTEN = "/service/integration/url/shorten";
const NOT_THIS_SITE = "Please enter the address of a page on this site.";
const REQUIRED = "This field is required.";
const PER_IP = 6;

let site: ApiSite;
let server: RunningServer;
let contract: ApiContract;
let database: Database;
let ipCounter = 0;

beforeAll(async () => {
  site = await startApiSite("apilinks", { CLIENT_IP_HEADER: "x-forwarded-for", RATE_LIMIT_PER_IP: String(PER_IP) });
  ({ server, contract, database } = site);
}, 120_000);

afterAll(() => site?.stop());

/** Each test calls from its own client address, so only the rate-limit test meets the limit. */
const newClientIp = () => `10.88.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function shortener(reader = new Reader(server.url), ip = newClientIp()) {
  return (body: unknown) => contract.call(reader, "POST", SHORTEN, { body, headers: { "X-Forwarded-For": ip } });
}

const storedLinks = async () =>
  Number(
    (
      await database
        .selectFrom("short_link")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const codeOf = (shortUrl: string) => {
  const url = new URL(shortUrl);
  expect(url.origin).toBe(server.url);
  expect(url.pathname).toMatch(/^\/s\/[A-Za-z0-9_-]{7,}$/);
  return url.pathname.slice("/s/".length);
};

async function follow(shortUrl: string): Promise<Response> {
  return fetch(shortUrl, { redirect: "manual" });
}

describe("POST /service/integration/url/shorten", () => {
  it("answers a short link on the site's own address that leads (301) to the page, path and query", async () => {
    const shorten = shortener();
    const { status, json } = await shorten({ url: `${server.url}/the-latest?page=2#top` });
    expect(status).toBe(200);
    const shortUrl = json.shortUrl as string;
    codeOf(shortUrl);

    const res = await follow(shortUrl);
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/the-latest?page=2");
    expect((await fetch(new URL(res.headers.get("location")!, server.url))).status).toBe(200);
  });

  it("gives the same page the same link, whoever asks and however the address is written", async () => {
    const first = await shortener()({ url: `${server.url}/magazine?year=2020` });
    const again = await shortener()({ url: `${server.url}/magazine?year=2020` });
    const asPath = await shortener(await registeredReader(server.url))({ url: "/magazine?year=2020" });
    const dotted = await shortener()({ url: `${server.url}/podcasts/../magazine?year=2020` });
    expect(first.status).toBe(200);
    expect([again.json.shortUrl, asPath.json.shortUrl, dotted.json.shortUrl]).toEqual(Array(3).fill(first.json.shortUrl));

    const other = await shortener()({ url: `${server.url}/magazine?year=2021` });
    expect(other.json.shortUrl).not.toBe(first.json.shortUrl);
    expect(codeOf(other.json.shortUrl as string)).not.toBe(codeOf(first.json.shortUrl as string));
  });

  it("refuses another site, another scheme and anything that is not an address: 400 on the url field, nothing stored", async () => {
    const before = await storedLinks();
    const shorten = shortener();
    for (const url of [
      "https://elsewhere.example/the-latest",
      `https://elsewhere.example@${new URL(server.url).host}.elsewhere.example/`,
      "//elsewhere.example/the-latest",
      "/\\elsewhere.example/the-latest",
      "javascript:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      `ftp://${new URL(server.url).host}/the-latest`,
      "not an address",
      "the-latest",
    ]) {
      const { status, json } = await shorten({ url });
      expect(status, url).toBe(400);
      expect(json.code, url).toBe("invalid_input");
      expect(json.fields, url).toEqual({ url: [NOT_THIS_SITE] });
    }
    expect(await storedLinks()).toBe(before);
  });

  it("answers the form's field errors for a missing, blank, overlong or non-text url", async () => {
    const shorten = shortener();
    expect((await shorten({})).json.fields).toEqual({ url: [REQUIRED] });
    expect((await shorten({ url: "   " })).json.fields).toEqual({ url: [REQUIRED] });
    expect((await shorten({ url: 42 })).json.fields).toEqual({ url: [NOT_THIS_SITE] });
    const long = await shorten({ url: `/search?q=${"a".repeat(2100)}` });
    expect(long.status).toBe(400);
    expect(long.json.fields?.url).toEqual(["The address must be at most 2048 characters."]);
  });

  it("limits each client address: 429 with Retry-After past the limit, while another address goes on", async () => {
    const ip = newClientIp();
    const shorten = shortener(new Reader(server.url), ip);
    for (let i = 0; i < PER_IP; i += 1) expect((await shorten({ url: `/the-latest?page=${i + 1}` })).status).toBe(200);
    const refused = await shorten({ url: "/the-latest?page=99" });
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe("too_many_requests");
    expect(Number(refused.res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await database.selectFrom("short_link").select("code").where("path", "=", "/the-latest?page=99").execute()).toEqual([]);
    expect((await shortener()({ url: "/the-latest?page=99" })).status).toBe(200);
  });

  it("refuses a call another site started (403)", async () => {
    const res = await fetch(server.url + SHORTEN, {
      method: "POST",
      headers: { Origin: "https://elsewhere.example", "Content-Type": "application/json", "X-Forwarded-For": newClientIp() },
      body: JSON.stringify({ url: "/the-latest" }),
    });
    expect(res.status).toBe(403);
    await contract.check(SHORTEN, "post", res);
  });
});

describe("GET /s/{code}", () => {
  it("answers the site's 404 page for an unknown or malformed code", async () => {
    for (const code of ["ZZZZZZZZ", "zzzzzzz", "not-a-code-at-all", "%2F%2Felsewhere.example", "..%2F..%2Fetc"]) {
      const res = await fetch(`${server.url}/s/${code}`, { redirect: "manual" });
      expect(res.status, code).toBe(404);
      expect(res.headers.get("content-type"), code).toMatch(/^text\/html/);
      expect(
        cheerio
          .load(await res.text())("h1")
          .text(),
        code,
      ).toBe("Page not found");
    }
  });

  it("is case-sensitive: a code with its case changed is another code", async () => {
    await database.insertInto("short_link").values({ code: "AbCdEfGh", path: "/podcasts", created_at: new Date().toISOString() }).execute();
    expect((await follow(`${server.url}/s/abcdefgh`)).status).toBe(404);
    expect((await follow(`${server.url}/s/AbCdEfGh`)).headers.get("location")).toBe("/podcasts");
  });
});
