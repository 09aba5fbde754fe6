import http from "node:http";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { hasSubject, plainText, RESET_SUBJECT, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";

// A server started on a port of its own without SITE_URL: every absolute link it hands out
// (the payment provider's hand-off and return, mail, canonical and Open Graph URLs, the
// sitemap, the embed code) is to that server, and a forged Host header changes none of them.

let server: RunningServer;
let smtp: LoopbackSmtp;
const FORGED = "evil.example";

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  // startBuiltServer picks a free port (never 3000) and binds 127.0.0.1; SITE_URL "" is unset.
  server = await startBuiltServer({ SITE_URL: "", SMTP_URL: smtp.url, RATE_LIMIT_PER_ACCOUNT: "1000" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** A request as a client that writes its own Host header sends it (fetch would not). */
function withHost(
  host: string,
  path: string,
  init: { cookie?: string; form?: Record<string, string> } = {},
): Promise<{ status: number; location?: string; body: string }> {
  const { hostname, port } = new URL(server.url);
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname,
        port,
        path,
        method: body === undefined ? "GET" : "POST",
        agent: false,
        headers: {
          Host: host,
          ...(init.cookie ? { Cookie: init.cookie } : {}),
          ...(body === undefined
            ? {}
            : { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(Buffer.byteLength(body)) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function registered(email: string): Promise<Reader> {
  const reader = new Reader(server.url);
  const res = await reader.request("/register", {
    form: { firstName: "Ines", lastName: "Okafor", emailAddress: email, password: "Lantern5!quay" },
  });
  expect(res.status).toBe(303);
  return reader;
}

describe("a server on another port, without SITE_URL", () => {
  it("says at start which address its links use, and warns that mail and payments use it", () => {
    expect(new URL(server.url).port).not.toBe("3000");
    expect(server.started).toContain(`at ${server.url}`);
    expect(server.errors()).toContain(`SITE_URL is not set: links in mail and at the payment provider use ${server.url}`);
  });

  it("hands an order to the payment provider, and the provider back, at its own address, whatever Host says", async () => {
    const guest = new Reader(server.url);
    const email = "guest.origin@example.org";
    expect(
      (
        await guest.request("/shopping-cart", {
          form: {
            intent: "add",
            productId: "1001",
            type: "Ship",
            quantity: "1",
            referral: "",
            productUrl: "/product/the-patient-ledger/1001",
            format: "Hardcover",
            productPrice: "32.00",
          },
        })
      ).status,
    ).toBeLessThan(400);
    const shipping = await guest.request("/shipping-payment", {
      form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, shippingMethod: "standard", email },
    });
    expect(shipping.headers.get("location")).toBe("/review-order");
    const $ = await guest.page("/review-order");
    const place = {
      idempotencyKey: $("input[name=idempotencyKey]").val() as string,
      shownTotal: $("input[name=shownTotal]").val() as string,
    };

    const placed = await withHost(FORGED, "/review-order", { cookie: guest.cookieHeader(), form: place });
    expect(placed.status).toBe(303);
    expect(placed.location).toMatch(new RegExp(`^${server.url}/sandbox-checkout/sbx_`));

    const paid = await withHost(FORGED, new URL(placed.location!).pathname, {
      cookie: guest.cookieHeader(),
      form: { cardNumber: "4242 4242 4242 4242" },
    });
    expect(paid.status).toBe(303);
    expect(new URL(paid.location!).origin).toBe(server.url);

    const mail = plainText((await smtp.waitFor((m) => m.rcptTo.includes(email))).raw);
    expect(mail).toMatch(new RegExp(`Your order, receipt and downloads: ${server.url}/order/`));
    expect(mail).not.toContain(FORGED);
    expect(mail).not.toContain("localhost:3000");
  });

  it("opens a subscription's checkout at its own address, whatever Host says", async () => {
    const reader = await registered("subscriber.origin@example.org");
    const started = await withHost(FORGED, "/subscriptions/checkout?plan=digital", {
      cookie: reader.cookieHeader(),
      form: { countryCode: "GB" },
    });
    expect(started.status).toBe(303);
    expect(started.location).toMatch(new RegExp(`^${server.url}/sandbox-checkout/sbx_`));
  });

  it("mails a password reset link to itself, whatever Host says, and redirects within the site by path", async () => {
    const email = "reset.origin@example.org";
    await registered(email);
    const asked = await withHost(FORGED, "/forgot-password", { form: { emailAddress: email } });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe("/forgot-password?sent=1");
    const mail = plainText((await smtp.waitFor((m) => m.rcptTo.includes(email) && hasSubject(m, RESET_SUBJECT))).raw);
    expect(mail).toContain(`${server.url}/reset-password?token=`);
    expect(mail).not.toContain(FORGED);
  });

  it("names itself in canonical and Open Graph URLs, structured data, the sitemap, feeds and embed codes", async () => {
    const home = cheerio.load((await withHost(FORGED, "/")).body);
    expect(home("link[rel=canonical]").attr("href")).toBe(`${server.url}/`);
    expect(home("meta[property='og:url']").attr("content")).toBe(`${server.url}/`);

    const sitemap = (await withHost(FORGED, "/sitemap.xml")).body;
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBeGreaterThan(0);
    for (const loc of locs) expect(loc.startsWith(`${server.url}/`), loc).toBe(true);
    const pages = (await withHost(FORGED, new URL(locs[0]!).pathname)).body;
    expect([...pages.matchAll(/<loc>([^<]+)<\/loc>/g)].every((m) => m[1]!.startsWith(`${server.url}/`))).toBe(true);

    const feed = (await withHost(FORGED, "/feeds/latest.xml")).body;
    expect(feed).toContain(`<link>${server.url}/the-latest</link>`);

    // A guest gets the embed code of a video open to everyone.
    const $videos = await new Reader(server.url).page("/video");
    const videoPaths = $videos("main a[href^='/video/']")
      .map((_, a) => $videos(a).attr("href"))
      .get()
      .filter((href) => /^\/video\/\d+\/[a-z0-9-]+$/.test(href));
    let $video: cheerio.CheerioAPI | undefined;
    for (const videoPath of videoPaths) {
      $video = cheerio.load((await withHost(FORGED, videoPath)).body);
      if ($video("#embed-code").length > 0) break;
    }
    expect($video!("#embed-code").text()).toContain(`src="${server.url}/video/embed/`);
    const structured = $video!("script[type='application/ld+json']").text();
    expect(structured).toContain(`${server.url}/`);
    expect(structured).not.toContain(FORGED);
  });
});
