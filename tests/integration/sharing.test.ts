import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { parseMessage, plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";

// Sharing against the production build, with mail going to a real SMTP server on a loopback
// port: network shares recorded in the sharing history, e-mail shares validated, capped, and
// carrying the title, summary and link but never the article's body.

let server: RunningServer;
let smtp: LoopbackSmtp;
let articles: { path: string; id: string }[] = [];

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000", SMTP_URL: smtp.url });
  const $ = cheerio.load(await (await fetch(`${server.url}/the-latest`)).text());
  articles = $("main ol article")
    .map((_, a) => {
      const save = new URL($(a).find("a[href*='save']").attr("href")!, server.url);
      return {
        path: $(a).find("h3 a").attr("href")!,
        id: new URL(save.searchParams.get("redirectTo")!, server.url).searchParams.get("id")!,
      };
    })
    .get();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const reader = () => registeredReader(server.url);
const article = (i: number) => articles[i]!;
const shareUrl = (i: number, tab: string) => `/share?type=article&id=${article(i).id}&tab=${tab}`;

function emailShare(r: Reader, i: number, fields: Record<string, string>) {
  return r.request(shareUrl(i, "email"), { form: { intent: "email", type: "article", id: article(i).id, ...fields } });
}

async function errorsOf(res: Response): Promise<string[]> {
  const $ = cheerio.load(await res.text());
  return $("[role=alert] li")
    .map((_, li) => $(li).text())
    .get();
}

describe("sharing to a network", () => {
  it("records a reader's share and sends them on to the network's own share page", async () => {
    const r = await reader();
    const res = await r.request(shareUrl(0, "twitter"), {
      form: { intent: "social", provider: "twitter", type: "article", id: article(0).id },
    });
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin).toBe("https://x.com");
    expect(to.searchParams.get("url")).toBe(`${server.url}${article(0).path}`);
    const $ = await r.page("/my-library/history/sharing");
    expect($("main ol li").first().text()).toContain("Shared via Twitter");
    expect($("main ol h3 a").attr("href")).toBe(article(0).path);
  });

  it("offers guests Connect with links, and sends them to sign in if they post", async () => {
    const guest = new Reader(server.url);
    const $ = await guest.page(shareUrl(0, "linkedin"));
    expect($("main a:contains('Connect with LinkedIn')").attr("href")).toMatch(
      /^https:\/\/www\.linkedin\.com\/sharing\/share-offsite\/\?url=/,
    );
    const res = await guest.request(shareUrl(0, "linkedin"), {
      form: { intent: "social", provider: "linkedin", type: "article", id: article(0).id },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/sign-in\?redirectTo=/);
    const email = await guest.page(shareUrl(0, "email"));
    expect(email("main").text()).toContain("To access this feature, please SIGN IN or REGISTER");
  });

  it("refuses unknown items, networks and actions", async () => {
    const r = await reader();
    expect((await r.request("/share?type=article&id=999999999")).status).toBe(404);
    expect((await r.request("/share?type=page&id=1")).status).toBe(404);
    expect(
      (await r.request(shareUrl(0, "facebook"), { form: { intent: "social", provider: "myspace", type: "article", id: article(0).id } }))
        .status,
    ).toBe(400);
    expect((await r.request(shareUrl(0, "facebook"), { form: { intent: "nonsense", type: "article", id: article(0).id } })).status).toBe(
      400,
    );
  });
});

describe("sharing by e-mail", () => {
  it("mails the title, summary and link (never the body) to each address, and records it", async () => {
    const r = await reader();
    const before = smtp.received.length;
    const res = await emailShare(r, 1, {
      from: "nell@example.org",
      sharedWith: "ann@example.com, bo@example.net",
      description: "Worth ten minutes.",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${shareUrl(1, "email")}&done=email`);
    expect((await r.page(res.headers.get("location")!))("[role=status]").text()).toBe("Shared via e-mail");

    const mail = smtp.received[before]!;
    expect(mail.rcptTo.sort()).toEqual(["ann@example.com", "bo@example.net"]);
    expect(parseMessage(mail.raw).header("reply-to")).toBe("nell@example.org");
    const text = plainText(mail.raw);
    expect(text).toContain(`${server.url}${article(1).path}`);
    expect(text).toContain("Worth ten minutes.");
    const page = cheerio.load(await (await fetch(server.url + article(1).path)).text());
    expect(text).toContain(page("h1").first().text());
    // Not a paragraph of the article's body, not even its free preview.
    for (const p of page("#article-body p").get()) {
      const sentence = page(p).text().slice(0, 80);
      if (sentence.length > 40) expect(text).not.toContain(sentence);
    }
    expect((await r.page("/my-library/history/sharing"))("main ol li").first().text()).toContain("Shared via e-mail");
  });

  it("checks both addresses and the number of recipients, with clear messages, sending nothing", async () => {
    const r = await reader();
    const before = smtp.received.length;
    const cases: [Record<string, string>, string][] = [
      [{ from: "", sharedWith: "ann@example.com" }, "This field is required."],
      [{ from: "not-an-address", sharedWith: "ann@example.com" }, "Please enter a valid email address."],
      [{ from: "nell@example.org", sharedWith: "" }, "This field is required."],
      [{ from: "nell@example.org", sharedWith: "ann@example.com, nobody" }, "Please enter valid email addresses, separated by commas."],
      [
        { from: "nell@example.org", sharedWith: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`).join(",") },
        "You can share with up to 10 addresses at a time.",
      ],
    ];
    for (const [fields, message] of cases) {
      const res = await emailShare(r, 2, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await errorsOf(res), JSON.stringify(fields)).toEqual([message]);
    }
    expect(smtp.received.length).toBe(before);
  });

  it("stops a reader after 20 e-mail shares in a day", async () => {
    const r = await reader();
    for (let i = 0; i < 20; i++) {
      expect((await emailShare(r, 3, { from: "nell@example.org", sharedWith: "ann@example.com" })).status, `share ${i + 1}`).toBe(303);
    }
    const refused = await emailShare(r, 3, { from: "nell@example.org", sharedWith: "ann@example.com" });
    expect(refused.status).toBe(429);
    expect(await errorsOf(refused)).toEqual(["You have shared as many e-mails as we allow in a day. Please try again tomorrow."]);
  });
});

describe("subscriber-only videos", () => {
  it("cannot be shared by readers without a subscription", async () => {
    const media = JSON.parse(fs.readFileSync(path.resolve("content/media.json"), "utf8")) as {
      videos: { slug: string; subscriberOnly: boolean }[];
    };
    const locked = media.videos.find((v) => v.subscriberOnly)!;
    const $ = cheerio.load(await (await fetch(`${server.url}/video`)).text());
    const href = $(`#all-videos + ul a[href$='/${locked.slug}']`).attr("href")!;
    const id = href.split("/")[2]!;
    const r = await reader();
    expect((await r.request(`/share?type=video&id=${id}`)).status).toBe(403);
    expect(
      (await r.request(`/share?type=video&id=${id}`, { form: { intent: "social", provider: "facebook", type: "video", id } })).status,
    ).toBe(403);
  });
});
