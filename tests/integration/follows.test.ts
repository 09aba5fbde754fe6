import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "~/server/adapters/mail";
import { connect, type Database } from "~/server/db/connection";
import { sendLatestIssue } from "~/server/newsletters/send";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Following topics, newsletters and campaigns, the following stream and its unread count, and the
// newsletter e-mail with its one-click unsubscribe link, against the production build with a
// real database (the test opens the server's database to add an article and read the follows).

const SESSION_SECRET = "follow-tests-session-secret-0123456789abcdef";
const PROMPT = "To access this feature, please SIGN IN or REGISTER";
const SUBSCRIBER_ONLY_TOPIC = "This topic is for subscribers. Subscribe to follow it.";
const EXECUTIVE_ONLY_TOPIC = "This topic is for Executive subscribers only.";
const SUBSCRIBER_ONLY_NEWSLETTER = "This newsletter is for subscribers. Subscribe to receive it.";
const INVALID_LINK = "This unsubscribe link is not valid.";
const GATED_MARKER = "Gated paragraph QX7 that only readers of the article page may see.";

let server: RunningServer;
let smtp: LoopbackSmtp;
let database: Database;
let connection: IsolatedConnection;

beforeAll(async () => {
  connection = await isolatedConnection("follow");
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer(
    {
      SESSION_SECRET,
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
    },
    "production",
    connection,
  );
  database = connect(connection);
}, 120_000);

afterAll(async () => {
  await database?.destroy();
  await server?.stop();
  await connection.drop();
  await smtp?.stop();
});

const registered = () => registeredReader(server.url);

/** Pays for a plan in the sandbox checkout, as the browser would. */
async function subscribed(plan: "digital" | "executive"): Promise<Reader> {
  const reader = await registered();
  const checkout = await reader.request(`/subscriptions/checkout?plan=${plan}`, { form: { countryCode: "GB" } });
  expect(checkout.status).toBe(303);
  const pay = await reader.request(new URL(checkout.headers.get("location")!, server.url).pathname, {
    form: { cardNumber: "4242 4242 4242 4242" },
  });
  expect(pay.status).toBe(303);
  const back = new URL(pay.headers.get("location")!, server.url);
  await reader.request(back.pathname + back.search);
  return reader;
}

async function topicId(slug: string): Promise<string> {
  const row = await database.selectFrom("topic").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
  return String(row.id);
}

async function userIdOf(reader: Reader): Promise<string> {
  const $ = await reader.page("/my-account");
  const email = $("input[name=emailAddress]").val() as string;
  const row = await database.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

const followForm = (intent: string, kind: string, target: string, redirectTo = "/") => ({ intent, kind, target, redirectTo });

async function follows(reader: Reader, kind: "topic" | "newsletter" | "campaign"): Promise<string[]> {
  const rows = await database
    .selectFrom("follow")
    .select("target")
    .where("user_id", "=", await userIdOf(reader))
    .where("kind", "=", kind)
    .orderBy("target")
    .execute();
  return rows.map((r) => r.target);
}

const articleLinks = ($: cheerio.CheerioAPI) =>
  $("main ol article h3 a")
    .map((_, a) => $(a).attr("href")!)
    .get();

describe("following topics", () => {
  it("toggles the topic page's button between Follow this and Following, with Post/Redirect/Get", async () => {
    const reader = await registered();
    const id = await topicId("strategy");
    let $ = await reader.page("/topic/subject/strategy");
    expect($("main form[action='/follow'] button").text()).toBe("Follow this");
    expect($("main form[action='/follow'] input[name=intent]").val()).toBe("follow");

    const res = await reader.request("/follow", { form: followForm("follow", "topic", id, "/topic/subject/strategy") });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/topic/subject/strategy");
    $ = await reader.page("/topic/subject/strategy");
    expect($("main form[action='/follow'] button").text()).toBe("Following");
    expect(await follows(reader, "topic")).toEqual([id]);

    // Following twice changes nothing; unfollowing twice is harmless too.
    expect((await reader.request("/follow", { form: followForm("follow", "topic", id) })).status).toBe(303);
    expect(await follows(reader, "topic")).toEqual([id]);
    for (let i = 0; i < 2; i++) expect((await reader.request("/follow", { form: followForm("unfollow", "topic", id) })).status).toBe(303);
    $ = await reader.page("/topic/subject/strategy");
    expect($("main form[action='/follow'] button").text()).toBe("Follow this");
    expect(await follows(reader, "topic")).toEqual([]);
  });

  it("answers a fetcher's post in place instead of redirecting", async () => {
    const reader = await registered();
    const id = await topicId("innovation");
    const res = await reader.request("/follow", { form: { ...followForm("follow", "topic", id), via: "fetcher" } });
    expect(res.status).toBe(200);
    expect(await follows(reader, "topic")).toEqual([id]);
  });

  it("sends a guest to the sign-in prompt, which links to sign-in and registration and back", async () => {
    const guest = new Reader(server.url);
    const res = await guest.request("/follow", {
      form: followForm("follow", "topic", await topicId("strategy"), "/topic/subject/strategy"),
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toBe("/follow?redirectTo=%2Ftopic%2Fsubject%2Fstrategy");
    const $ = await guest.page(location);
    expect($("main").text().replace(/\s+/g, " ")).toContain(PROMPT);
    expect($("main a[href='/sign-in?redirectTo=%2Ftopic%2Fsubject%2Fstrategy']").text()).toBe("SIGN IN");
    expect($("main a[href='/register?redirectTo=%2Ftopic%2Fsubject%2Fstrategy']").text()).toBe("REGISTER");

    const viaFetcher = await guest.request("/follow", { form: { ...followForm("follow", "topic", "1"), via: "fetcher" } });
    expect(viaFetcher.status).toBe(401);

    const stream = await guest.request("/my-library/topics?filter=RD");
    expect(stream.status).toBe(302);
    expect(stream.headers.get("location")).toBe("/sign-in?redirectTo=%2Fmy-library%2Ftopics%3Ffilter%3DRD");
    const newsletters = await guest.page("/email-newsletters");
    expect(newsletters("main").text().replace(/\s+/g, " ")).toContain(PROMPT);
    expect(newsletters("main form[action='/follow']")).toHaveLength(0);
  });

  // A subject's rule holds for each of its topics: R&D's Prototyping, Board Governance's CEO Succession.
  it("refuses a subscriber-only topic to a reader without a subscription, and says so on the page", async () => {
    for (const slug of ["randd", "prototyping"]) {
      const reader = await registered();
      const rd = await topicId(slug);
      const res = await reader.request("/follow", { form: followForm("follow", "topic", rd) });
      expect(res.status, slug).toBe(403);
      expect(
        cheerio
          .load(await res.text())("main [role=alert]")
          .text(),
      ).toBe(SUBSCRIBER_ONLY_TOPIC);
      expect(await follows(reader, "topic")).toEqual([]);
      const $ = await reader.page(`/topic/subject/${slug}`);
      expect($("main header").text()).toContain(SUBSCRIBER_ONLY_TOPIC);
      expect($("main form[action='/follow']")).toHaveLength(0);

      const subscriber = await subscribed("digital");
      expect((await subscriber.request("/follow", { form: followForm("follow", "topic", rd) })).status, slug).toBe(303);
      expect(await follows(subscriber, "topic")).toEqual([rd]);
    }
  });

  it("lets only Executive subscribers follow an executive-only topic", async () => {
    for (const slug of ["board-governance", "ceo-succession"]) {
      const board = await topicId(slug);
      const digital = await subscribed("digital");
      const refused = await digital.request("/follow", { form: followForm("follow", "topic", board) });
      expect(refused.status, slug).toBe(403);
      expect(
        cheerio
          .load(await refused.text())("main [role=alert]")
          .text(),
      ).toBe(EXECUTIVE_ONLY_TOPIC);
      expect((await digital.page(`/topic/subject/${slug}`))("main header").text()).toContain(EXECUTIVE_ONLY_TOPIC);
      expect(await follows(digital, "topic")).toEqual([]);

      const executive = await subscribed("executive");
      expect((await executive.request("/follow", { form: followForm("follow", "topic", board) })).status, slug).toBe(303);
      expect(await follows(executive, "topic")).toEqual([board]);
    }
  });

  it("answers bad input with 4xx and stores nothing", async () => {
    const reader = await registered();
    const cases: [Record<string, string>, number][] = [
      [followForm("follow", "topic", "999999"), 404],
      [followForm("follow", "topic", "strategy"), 404],
      [followForm("follow", "topic", "-1"), 404],
      [followForm("follow", "newsletter", "no-such-letter"), 404],
      [followForm("follow", "campaign", "no-such-campaign"), 404],
      [followForm("follow", "playlist", "1"), 400],
      [followForm("subscribe", "topic", "1"), 400],
      [followForm("follow", "topic", "1".repeat(5000)), 400],
      [{ intent: "follow" }, 400],
    ];
    for (const [form, status] of cases) {
      const res = await reader.request("/follow", { form });
      expect(res.status, JSON.stringify(form).slice(0, 80)).toBe(status);
    }
    const crossSite = await reader.request("/follow", {
      form: followForm("follow", "topic", "2"),
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    // A foreign Origin is refused before the action runs (Remix's own check answers 500).
    const foreignOrigin = await reader.request("/follow", {
      form: followForm("follow", "topic", "3"),
      headers: { Origin: "https://evil.example" },
    });
    expect(foreignOrigin.status).toBeGreaterThanOrEqual(400);
    const offSite = await reader.request("/follow", { form: followForm("follow", "topic", "1", "https://evil.example/") });
    expect(offSite.headers.get("location")).toBe("/");
    expect(
      await database
        .selectFrom("follow")
        .select("target")
        .where("user_id", "=", await userIdOf(reader))
        .where("kind", "=", "topic")
        .execute(),
    ).toEqual([{ target: "1" }]);
  });
});

describe("the following stream", () => {
  it("welcomes a reader who follows nothing", async () => {
    const $ = await (await registered()).page("/my-library/topics");
    expect($("main h1").text()).toBe("Welcome to your topics");
    expect($("main a[href='/topics']")).toHaveLength(1);
  });

  it("lists followed topics' articles, filters by topic with R&D sent as RD, and asks before unfollowing", async () => {
    const reader = await subscribed("digital");
    const [rd, strategy] = [await topicId("randd"), await topicId("strategy")];
    for (const id of [rd, strategy])
      expect((await reader.request("/follow", { form: followForm("follow", "topic", id) })).status).toBe(303);

    let $ = await reader.page("/my-library/topics");
    const menu = $("main nav[aria-labelledby=topic-menu-heading]");
    expect(menu.find("a[aria-current=page]").text()).toBe("Everything");
    expect(menu.find("a[href='/my-library/topics?filter=RD']").text()).toBe("R&D");
    expect(menu.find("a[href='/my-library/topics?filter=Strategy']").text()).toBe("Strategy");
    expect(menu.find("a[href='/topics']").text()).toBe("Find More");
    const total = await database
      .selectFrom("article_topic")
      .where("topic_id", "in", [Number(rd), Number(strategy)])
      .select((eb) => eb.fn.count<number>("article_id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    expect($("main").text()).toContain(`of ${Number(total.n)}`);

    $ = await reader.page("/my-library/topics?filter=RD");
    expect($("main nav a[aria-current=page]").text()).toBe("R&D");
    const topicPage = await reader.page("/topic/subject/randd");
    expect(articleLinks($).length).toBeGreaterThan(0);
    expect(articleLinks($)).toEqual(articleLinks(topicPage));
    // The name itself is understood too; an unknown or unfollowed topic is not found.
    expect(articleLinks(await reader.page("/my-library/topics?filter=R%26D"))).toEqual(articleLinks(topicPage));
    expect((await reader.request("/my-library/topics?filter=Operations")).status).toBe(404);
    expect((await reader.request("/my-library/topics?page=9999")).status).toBe(404);

    $ = await reader.page("/my-library/topics?filter=Strategy&confirm=RD");
    expect($("#confirm-question").text()).toBe('Stop following "R&D"?');
    expect($("main a:contains('No')").attr("href")).toBe("/my-library/topics?filter=Strategy");
    const yes = $("main form[action='/follow']");
    expect(yes.find("button").text()).toBe("Yes");
    const form = Object.fromEntries(
      yes
        .find("input[type=hidden]")
        .map((_, i) => [[$(i).attr("name")!, $(i).val() as string]])
        .get(),
    );
    const res = await reader.request("/follow", { form });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/my-library/topics");
    $ = await reader.page("/my-library/topics");
    expect($("main nav a[href='/my-library/topics?filter=RD']")).toHaveLength(0);
    expect(await follows(reader, "topic")).toEqual([strategy]);
  });

  it("counts new articles in followed topics in the header until the stream is visited", async () => {
    const reader = await registered();
    const unread = async (path = "/") => Number((await reader.page(path))("header [data-unread-following]").attr("data-unread-following"));
    const strategy = await topicId("strategy");
    expect((await reader.request("/follow", { form: followForm("follow", "topic", strategy) })).status).toBe(303);
    // What was published before the reader followed does not count as new.
    expect(await unread()).toBe(0);

    await new Promise((r) => setTimeout(r, 20));
    const id = await addArticle(Number(strategy), "A fresh strategy piece for followers");
    expect(await unread()).toBe(1);
    expect((await reader.page("/topics"))("header a[href='/my-library/topics']").text()).toMatch(/^Following\s*1 new$/);
    const $ = await reader.page("/my-library/topics");
    expect(articleLinks($)[0]).toContain("a-fresh-strategy-piece-for-followers");
    expect(await unread()).toBe(0);
    await database.deleteFrom("article_topic").where("article_id", "=", id).execute();
    await database.deleteFrom("article_record").where("id", "=", id).execute();
  });
});

/** Publishes an article now in a topic (the body holds a marker that mail must never carry). */
async function addArticle(topic: number, title: string): Promise<number> {
  const max = await database
    .selectFrom("article")
    .select((eb) => eb.fn.max("id").as("m"))
    .executeTakeFirstOrThrow();
  const id = Number(max.m) + 1;
  const now = new Date();
  const slug = title.toLowerCase().replace(/\s+/g, "-");
  await database
    .insertInto("article_record")
    .values({
      id,
      slug,
      year: now.getUTCFullYear(),
      month: now.getUTCMonth() + 1,
      title,
      dek: "A dek.",
      sub_dek: "",
      summary: `Summary of ${title}.`,
      body: GATED_MARKER,
      content_type: "Article",
      published: now.toISOString(),
      tier: "article",
      primary_topic_id: topic,
      series_id: null,
      series_part: null,
      word_count: 12,
    })
    .execute();
  await database
    .insertInto("article_topic")
    .values({ article_id: id, topic_id: topic, position: 0, published: now.toISOString() })
    .execute();
  return id;
}

describe("newsletters and campaigns", () => {
  const subscribedOnPage = async (reader: Reader) => {
    const $ = await reader.page("/email-newsletters");
    return $("main form[action='/follow'] input[name=intent][value=unfollow]")
      .map((_, i) => $(i).siblings("input[name=target]").val() as string)
      .get()
      .sort();
  };

  it("lists every newsletter with its frequency and description", async () => {
    const $ = await (await registered()).page("/email-newsletters");
    expect($("main h1").text()).toBe("Email Newsletters");
    const daily = $("main li:has(h3:contains('The Daily Brief'))");
    expect(daily.find("p").first().text()).toBe("Daily");
    expect(daily.text()).toContain("Our editors' pick of the day's most useful ideas");
    expect(daily.find("button").text()).toBe("Subscribe to The Daily Brief");
    expect($("main h3")).toHaveLength(7 + 3);
  });

  it("subscribes and unsubscribes newsletters and campaigns, and unsubscribes from all newsletters at once", async () => {
    const reader = await registered();
    for (const [kind, target] of [
      ["newsletter", "the-daily-brief"],
      ["newsletter", "the-chart-room"],
      ["campaign", "event-invitations"],
    ] as const) {
      const res = await reader.request("/follow", { form: followForm("follow", kind, target, "/email-newsletters") });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/email-newsletters");
    }
    expect(await subscribedOnPage(reader)).toEqual(["event-invitations", "the-chart-room", "the-daily-brief"]);
    expect((await reader.page("/email-newsletters"))("main [role=status]").first().text()).toBe("You are subscribed to 2 newsletters.");

    expect((await reader.request("/follow", { form: followForm("unfollow", "newsletter", "the-chart-room") })).status).toBe(303);
    expect(await follows(reader, "newsletter")).toEqual(["the-daily-brief"]);

    expect((await reader.request("/follow", { form: followForm("follow", "newsletter", "leading-people") })).status).toBe(303);
    const all = await reader.request("/follow", { form: { intent: "unfollow-all-newsletters", redirectTo: "/email-newsletters" } });
    expect(all.status).toBe(303);
    expect(await follows(reader, "newsletter")).toEqual([]);
    // Marketing campaigns are not newsletters: they stay.
    expect(await follows(reader, "campaign")).toEqual(["event-invitations"]);
    expect((await reader.request("/follow", { form: followForm("unfollow", "campaign", "event-invitations") })).status).toBe(303);
    expect(await subscribedOnPage(reader)).toEqual([]);
  });

  it("keeps subscriber-only newsletters for subscribers", async () => {
    const reader = await registered();
    const refused = await reader.request("/follow", { form: followForm("follow", "newsletter", "the-insider") });
    expect(refused.status).toBe(403);
    expect(
      cheerio
        .load(await refused.text())("main [role=alert]")
        .text(),
    ).toBe(SUBSCRIBER_ONLY_NEWSLETTER);
    expect((await reader.page("/email-newsletters"))("main li:has(h3:contains('The Insider'))").text()).toContain(
      SUBSCRIBER_ONLY_NEWSLETTER,
    );
    const subscriber = await subscribed("digital");
    expect((await subscriber.request("/follow", { form: followForm("follow", "newsletter", "the-insider") })).status).toBe(303);
    expect(await follows(subscriber, "newsletter")).toEqual(["the-insider"]);
  });
});

/** Headers (unfolded) and the decoded text/plain part of a raw message. */
function readMail(raw: string): { header: (name: string) => string | undefined; text: string; raw: string } {
  const split = raw.indexOf("\r\n\r\n");
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get("content-type") ?? "")?.[1];
  const plain = (boundary ? raw.split(`--${boundary}`) : [raw]).find((part) => /content-type:\s*text\/plain/i.test(part))!;
  const body = plain.slice(plain.indexOf("\r\n\r\n") + 4);
  const text = /content-transfer-encoding:\s*quoted-printable/i.test(plain)
    ? body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : /content-transfer-encoding:\s*base64/i.test(plain)
      ? Buffer.from(body, "base64").toString("utf8")
      : body;
  return {
    header: (name) => headers.get(name.toLowerCase()),
    text: Buffer.from(text, "latin1").toString("utf8").replace(/\r\n/g, "\n"),
    raw,
  };
}

describe("the newsletter e-mail and its one-click unsubscribe", () => {
  let alice: Reader;
  let bob: Reader;
  let aliceId: string;
  let bobId: string;
  let link: URL;

  beforeAll(async () => {
    [alice, bob] = [await registered(), await registered()];
    [aliceId, bobId] = [await userIdOf(alice), await userIdOf(bob)];
    for (const reader of [alice, bob]) {
      for (const slug of ["the-daily-brief", "the-chart-room"]) {
        expect((await reader.request("/follow", { form: followForm("follow", "newsletter", slug) })).status).toBe(303);
      }
    }
    await addArticle(Number(await topicId("strategy")), "Newest piece for the newsletter");
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: "Meridian Review <no-reply@meridian-review.example>",
      outbox: connection.dataDir,
    });
    const result = await sendLatestIssue(database, mailer, "the-daily-brief", { siteUrl: server.url, secret: SESSION_SECRET });
    expect(result).toEqual({ sent: 2, failed: 0 });
    expect(await sendLatestIssue(database, mailer, "no-such-letter", { siteUrl: server.url, secret: SESSION_SECRET })).toBeUndefined();
  }, 60_000);

  const aliceMail = async () => {
    const email = await database.selectFrom("app_user").select("email").where("id", "=", aliceId).executeTakeFirstOrThrow();
    const found = smtp.received.find((m) => m.rcptTo.includes(email.email));
    expect(found).toBeTruthy();
    return readMail(found!.raw);
  };

  it("carries the description, the latest articles' titles, summaries and links, never gated text, and the RFC 8058 headers", async () => {
    const mail = await aliceMail();
    expect(mail.header("subject")).toBe("The Daily Brief: Newest piece for the newsletter");
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const header = /^<(.+)>$/.exec(mail.header("list-unsubscribe") ?? "")?.[1];
    expect(header).toMatch(new RegExp(`^${server.url}/newsletters/unsubscribe\\?token=[A-Za-z0-9_.%-]+$`));
    link = new URL(header!);
    expect(mail.text).toContain(`Unsubscribe: ${link.href}`);
    expect(mail.text).toContain("Our editors' pick of the day's most useful ideas");
    expect(mail.text).toContain("Newest piece for the newsletter\nSummary of Newest piece for the newsletter.");
    expect(mail.text).toMatch(new RegExp(`${server.url}/\\d{4}/\\d{2}/newest-piece-for-the-newsletter`));
    expect(mail.raw).not.toContain("QX7");
    const bodies = await database
      .selectFrom("article")
      .select("body")
      .orderBy("published", "desc")
      .orderBy("id", "desc")
      .limit(3)
      .execute();
    for (const { body } of bodies) expect(mail.text).not.toContain(body.slice(0, 120));
  });

  it("asks on GET without sign-in, and a plain form post unsubscribes with Post/Redirect/Get", async () => {
    const guest = new Reader(server.url);
    const $ = await guest.page(link.pathname + link.search);
    expect($("main h1").text()).toBe("Unsubscribe from The Daily Brief?");
    expect(await follows(alice, "newsletter")).toEqual(["the-chart-room", "the-daily-brief"]);
    const token = link.searchParams.get("token")!;
    const crossSite = await guest.request(link.pathname + link.search, { form: { token }, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const res = await guest.request(link.pathname + link.search, { form: { token } });
    expect(res.status).toBe(303);
    const done = await guest.page(res.headers.get("location")!);
    expect(done("main [role=status]").text()).toBe("You have been unsubscribed from The Daily Brief.");
    expect(await follows(alice, "newsletter")).toEqual(["the-chart-room"]);
    // Subscribing again is the reader's choice; the one-click test below unsubscribes once more.
    expect((await alice.request("/follow", { form: followForm("follow", "newsletter", "the-daily-brief") })).status).toBe(303);
  });

  it("accepts a mail client's one-click POST (no Origin, no cookies) and is idempotent", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(link.href, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
        redirect: "manual",
      });
      expect(res.status).toBe(200);
      expect(
        cheerio
          .load(await res.text())("main [role=status]")
          .text(),
      ).toBe("You have been unsubscribed from The Daily Brief.");
    }
    expect(await follows(alice, "newsletter")).toEqual(["the-chart-room"]);
    expect(await follows(bob, "newsletter")).toEqual(["the-chart-room", "the-daily-brief"]);
  });

  it("refuses forged tokens and tokens altered to name someone else or another newsletter", async () => {
    const token = link.searchParams.get("token")!;
    const [payload, mac] = token.split(".") as [string, string];
    const encode = (text: string) => Buffer.from(text, "utf8").toString("base64url");
    const forged = [
      `${payload}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`,
      `${encode(`${bobId}\nthe-daily-brief`)}.${mac}`,
      `${encode(`${aliceId}\nthe-chart-room`)}.${mac}`,
      "nonsense",
      "",
      "x".repeat(5000),
    ];
    for (const bad of forged) {
      const path = `/newsletters/unsubscribe?token=${encodeURIComponent(bad)}`;
      const page = await fetch(server.url + path);
      expect(page.status, bad.slice(0, 40)).toBe(400);
      expect(
        cheerio
          .load(await page.text())("main [role=alert]")
          .text(),
      ).toContain(INVALID_LINK);
      const oneClick = await fetch(server.url + path, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(oneClick.status).toBe(400);
    }
    expect(await follows(bob, "newsletter")).toEqual(["the-chart-room", "the-daily-brief"]);
    expect(await follows(alice, "newsletter")).toEqual(["the-chart-room"]);
  });
});
