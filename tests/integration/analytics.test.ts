import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "~/server/adapters/mail";
import { runRenewals } from "~/server/billing/renewals";
import { connect } from "~/server/db/connection";
import { createSandboxProvider } from "~/server/payments/sandbox";
import type { AnalyticsDataLayer } from "~/server/readers/analytics";
import { Reader, registeredReader, subscribe } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The analytics data layer (spec section 3): every page carries the reader's user view and
// visitor scores in a nonce'd script a tag manager can read, built from the reader's own records.

let server: RunningServer;
let connection: IsolatedConnection;

beforeAll(async () => {
  connection = await isolatedConnection("analytics");
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await connection.drop();
});

/** The data layer of a page, as the script sets it, and the script's nonce against the page's CSP. */
async function dataLayer(reader: Reader, path: string): Promise<AnalyticsDataLayer> {
  const res = await reader.request(path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const { load } = await import("cheerio");
  const $: cheerio.CheerioAPI = load(html);
  const script = $("head script[data-analytics]");
  expect(script).toHaveLength(1);
  const csp = res.headers.get("content-security-policy") ?? "";
  const nonce = script.attr("nonce");
  // Allowed by the page's policy: by its nonce, or (a page from the page cache) by its hash.
  expect(nonce ? csp.includes(`'nonce-${nonce}'`) : /'sha256-/.test(csp)).toBe(true);
  const match = /^window\.meridianDataLayer=(.*);$/s.exec(script.html() ?? "");
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as AnalyticsDataLayer;
}

const articles = async (reader: Reader) => {
  const $ = await reader.page("/the-latest");
  return $("main article h3 a")
    .map((_, a) => $(a).attr("href")!)
    .get();
};

describe("the analytics data layer", () => {
  it("tells a guest apart, with the meter and no account, and nothing of the browser", async () => {
    const guest = new Reader(server.url);
    const [first, second] = await articles(guest);
    await guest.page(first!);
    // An article page tells the meter as it stands after its own read, however its loaders ran.
    const onArticle = await dataLayer(guest, second!);
    expect(onArticle.user.quota).toEqual({ limit: 4, remaining: 2 });
    expect(onArticle.visitorScores.articlesReadThisMonth).toBe(2);
    const layer = await dataLayer(guest, "/");
    expect(layer.user).toEqual({
      accountID: null,
      guid: null,
      userState: "Guest",
      username: null,
      quota: { limit: 4, remaining: 2 },
      subscriptions: [],
      createdDate: null,
      lastVisitDate: null,
      following: [],
      optIn: false,
    });
    expect(layer.visitorScores).toEqual({ articlesReadThisMonth: 2, topicsFollowed: null });
  });

  it("describes a registered reader: account, meter, follows and opt-in", async () => {
    const reader = await registeredReader(server.url);
    const topicPage = await reader.page("/topic/subject/strategy");
    const target = topicPage('form[action="/follow"] input[name="target"]').first().val() as string;
    const follow = await reader.request("/follow", { form: { intent: "follow", kind: "topic", target, redirectTo: "/" } });
    expect(follow.status).toBe(303);
    const layer = await dataLayer(reader, "/topics");
    expect(layer.user).toMatchObject({
      userState: "Registered",
      username: expect.stringMatching(/@example\.org$/),
      quota: { limit: 8, remaining: 8 },
      subscriptions: [],
      optIn: false,
    });
    expect(layer.user.accountID).toMatch(/\S/);
    expect(layer.user.guid).toBe(layer.user.accountID);
    expect(Date.parse(layer.user.createdDate!)).not.toBeNaN();
    expect(layer.user.following).toEqual(["Strategy"]);
    expect(layer.visitorScores).toEqual({ articlesReadThisMonth: 0, topicsFollowed: 1 });
  });

  it("lists a subscriber's subscription with its term, value and access period, and no meter", async () => {
    const reader = await subscribe(await registeredReader(server.url));
    const layer = await dataLayer(reader, "/");
    expect(layer.user.userState).toBe("Subscriber");
    expect(layer.user.quota).toBeNull();
    expect(layer.user.subscriptions).toHaveLength(1);
    const [subscription] = layer.user.subscriptions;
    expect(subscription).toMatchObject({
      subscriptionSourceCode: "WEB",
      subscriptionStatus: "active",
      timesRenewed: 0,
      termTitle: "Digital",
      accountNumber: null,
      country: null,
    });
    expect(subscription!.orderValue).toBeGreaterThan(0);
    const { start, expiration } = subscription!.subscriptionAccessPeriod;
    expect(Date.parse(expiration)).toBeGreaterThan(Date.parse(start));
    expect(layer.visitorScores.articlesReadThisMonth).toBeNull();
  });

  // Last: it moves the sandbox provider's clock on for this server's database.
  it("tells a renewed subscription truly, on the page and in the service API's profile alike", async () => {
    const reader = await subscribe(await registeredReader(server.url));
    const bought = (await dataLayer(reader, "/")).user.subscriptions[0]!;
    expect(bought).toMatchObject({ subscriptionStatus: "active", timesRenewed: 0, orderValue: 12 });

    // A month on by the provider's clock, the renewal run (as the housekeeping runs it) charges the card again.
    const database = connect(connection);
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "analytics-mail-"));
    try {
      const sandbox = createSandboxProvider(database, { siteUrl: server.url, webhookSecret: "not-used-by-renewals" });
      await sandbox.advanceClock(31 * 86_400);
      const mail = {
        mailer: createMailer({ from: "Meridian Review <no-reply@meridian-review.example>", outbox }),
        siteUrl: server.url,
        publisher: { name: "Meridian Review Publishing", addressLines: ["60 Harbor Street"], taxId: null },
      };
      expect((await runRenewals(database, sandbox.billing, mail, new Date(), 7)).renewed).toBeGreaterThanOrEqual(1);
    } finally {
      await database.destroy();
      fs.rmSync(outbox, { recursive: true, force: true });
    }

    const layer = await dataLayer(reader, "/");
    expect(layer.user.userState).toBe("Subscriber");
    const [renewed] = layer.user.subscriptions;
    expect(renewed).toMatchObject({ subscriptionStatus: "active", timesRenewed: 1, orderValue: 12, purchaseDate: bought.purchaseDate });
    // The current period begins where the bought one ended, and runs a month on.
    expect(renewed!.subscriptionAccessPeriod.start).toBe(bought.subscriptionAccessPeriod.expiration);
    const end = new Date(bought.subscriptionAccessPeriod.expiration);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(renewed!.subscriptionAccessPeriod.expiration).toBe(end.toISOString());

    const profile = await reader.request("/service/user/profile");
    expect(profile.status).toBe(200);
    const json = (await profile.json()) as { subscriptions: unknown[]; subscriber: { accessEnd: string } };
    expect(json.subscriptions).toEqual(layer.user.subscriptions);
    expect(json.subscriber.accessEnd).toBe(renewed!.subscriptionAccessPeriod.expiration);
  });
});
