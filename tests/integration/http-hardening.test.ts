import fs from "node:fs";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_REFUSED } from "~/app/lib/forms/cross-site";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";

// The HTTP layer as a browser (or another site) meets it: cross-site posts, sign-out, redirect
// targets, security headers and caching, against the production build.

let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer({ CLIENT_IP_HEADER: "x-forwarded-for" });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** Where to post for each route file with an action. A new action route fails the test until it is listed here. */
const ACTION_URLS: Record<string, string | null> = {
  "$year.$month.$slug.tsx": "/2026/01/any-article",
  "article-gift.tsx": "/article-gift",
  // Server to server from the payment provider, authenticated by its signature: not a browser form.
  "api.payments.webhook.tsx": null,
  // The desk answers a reader 404 before reading any form, cross-site or not; its cross-site 403
  // for staff is checked in desk.test.ts.
  "desk.$.tsx": null,
  "desk.$section.$item.tsx": null,
  "desk._index.tsx": null,
  "desk.api-keys.tsx": null,
  "desk.articles.$id._index.tsx": null,
  // The article form's enhancements' endpoints (ADR 085): their cross-site 403 for staff is checked in desk-enhancements.test.ts.
  "desk.articles.$id.autosave.tsx": null,
  "desk.articles.$id.revisions.$revisionId.tsx": null,
  "desk.articles.$id.revisions._index.tsx": null,
  "desk.articles._index.tsx": null,
  "desk.articles.new.tsx": null,
  "desk.articles.preview.tsx": null,
  "desk.articles.suggest.tsx": null,
  "desk.articles_.$id_.image.tsx": null,
  "desk.audit.tsx": null,
  "desk.authors.$id.tsx": null,
  "desk.authors._index.tsx": null,
  "desk.authors.new.tsx": null,
  "desk.authors_.$slug_.photo.tsx": null,
  "desk.enrol.tsx": null,
  "desk.home.tsx": null,
  "desk.magazine.$id.tsx": null,
  "desk.magazine._index.tsx": null,
  "desk.magazine.new.tsx": null,
  "desk.magazine_.$id_.cover.tsx": null,
  "desk.newsletters._index.tsx": null,
  "desk.offers._index.tsx": null,
  "desk.offers.promo-codes.$code.tsx": null,
  "desk.offers.promo-codes.new.tsx": null,
  "desk.offers.vouchers.$code.tsx": null,
  "desk.offers.vouchers.new.tsx": null,
  "desk.newsletters.issues.$issueId._index.tsx": null,
  "desk.newsletters.issues.$issueId.preview.tsx": null,
  "desk.newsletters.issues.$issueId.send.tsx": null,
  "desk.orders.$orderNumber.tsx": null,
  "desk.orders._index.tsx": null,
  "desk.orders[.csv].tsx": null,
  "desk.podcasts.$series.$id.tsx": null,
  "desk.podcasts.$series.$id_.audio.tsx": null,
  "desk.podcasts.$series._index.tsx": null,
  "desk.podcasts.$series.new.tsx": null,
  "desk.podcasts._index.tsx": null,
  "desk.products.$id.tsx": null,
  "desk.products._index.tsx": null,
  "desk.products.new.tsx": null,
  "desk.products_.$id_.cover.tsx": null,
  "desk.products_.$id_.formats.$availabilityId.tsx": null,
  "desk.products_.$id_.formats.$availabilityId_.file.tsx": null,
  "desk.products_.$id_.formats.new.tsx": null,
  "desk.readers.$userId.tsx": null,
  "desk.readers._index.tsx": null,
  "desk.reports._index.tsx": null,
  "desk.reports.funnel[.csv].tsx": null,
  "desk.reports.sales[.csv].tsx": null,
  "desk.reports.subscriptions[.csv].tsx": null,
  "desk.reading-lists.$listId.tsx": null,
  "desk.reading-lists._index.tsx": null,
  "desk.reading-lists.new.tsx": null,
  "desk.security.tsx": null,
  "desk.staff.$userId.tsx": null,
  "desk.staff._index.tsx": null,
  "desk.topics.$id.tsx": null,
  "desk.topics._index.tsx": null,
  "desk.topics.new.tsx": null,
  "desk.verify.tsx": null,
  "desk.videos.$id.tsx": null,
  "desk.videos._index.tsx": null,
  "desk.videos.new.tsx": null,
  "desk.videos_.$id_.files.tsx": null,
  "dismiss.tsx": "/dismiss",
  "follow.tsx": "/follow",
  "forgot-password.tsx": "/forgot-password",
  "logout.tsx": "/logout",
  "my-account.tsx": "/my-account",
  "my-account_.billing.tsx": "/my-account/billing",
  "my-account_.billing_.cancel.tsx": "/my-account/billing/cancel",
  "my-account_.billing_.card.tsx": "/my-account/billing/card",
  "my-account_.billing_.plan.tsx": "/my-account/billing/plan",
  "my-account_.delete.tsx": "/my-account/delete",
  "my-account_.gifts.tsx": "/my-account/gifts",
  "my-library._index.tsx": "/my-library?index",
  "my-library.library.$folderSlug.tsx": "/my-library/library/any-folder",
  "my-library.organize.$itemId.tsx": "/my-library/organize/any-item",
  "my-library_.save.tsx": "/my-library/save",
  "newsletters.unsubscribe.tsx": "/newsletters/unsubscribe?token=any",
  "order.$id.tsx": "/order/any-order",
  "preferences.text-size.tsx": "/preferences/text-size",
  "redeem.tsx": "/redeem",
  "confirm-email.tsx": "/confirm-email",
  "register.tsx": "/register",
  "reset-password.tsx": "/reset-password",
  "review-order.tsx": "/review-order",
  "sandbox-checkout.$id.tsx": "/sandbox-checkout/any-session",
  "share.tsx": "/share",
  "shipping-payment.tsx": "/shipping-payment",
  "shopping-cart.tsx": "/shopping-cart",
  "sign-in.tsx": "/sign-in",
  "subscriber-registration.tsx": "/subscriber-registration",
  "subscriptions_.checkout.tsx": "/subscriptions/checkout?plan=digital",
};

/** Routes with an action, but the service API's, whose cross-site refusal api-contract.test.ts checks on every operation. */
function actionRoutes(): string[] {
  return fs
    .readdirSync("app/routes")
    .filter((file) => {
      const source = fs.readFileSync(`app/routes/${file}`, "utf8");
      return /export (async )?function action\b|export const action\b/.test(source) && !source.includes("apiRoute(");
    })
    .sort();
}

async function signedIn(reader: Reader): Promise<boolean> {
  return (await reader.request("/my-account")).status === 200;
}

describe("cross-site form posts", () => {
  it("lists every route with an action", () => {
    expect(actionRoutes()).toEqual(Object.keys(ACTION_URLS).sort());
  });

  it.each([
    ["a browser's Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["a foreign Origin", { Origin: "https://evil.example" }],
  ])("answers every action with 403 and a sentence inside the site, and changes nothing: %s", async (_, headers) => {
    const reader = await registeredReader(server.url);
    const form = {
      intent: "follow",
      kind: "topic",
      target: "1",
      size: "large",
      redirectTo: "/",
      item: "onboarding",
      username: "a@example.org",
      password: "x",
    };
    for (const path of Object.values(ACTION_URLS).filter((p): p is string => p !== null)) {
      const res = await reader.request(path, { form, headers });
      expect(res.status, path).toBe(403);
      expect(res.headers.getSetCookie(), path).toEqual([]);
      const body = await res.text();
      expect(body, path).toContain(CROSS_SITE_REFUSED);
      // /api/* answers scripts and has no page of its own; the sentence comes as text.
      if (path.startsWith("/api/")) continue;
      const $ = cheerio.load(body);
      expect($("[data-site-header]").length, path).toBe(1);
      expect($("[data-site-footer]").length, path).toBe(1);
      expect($("main p").first().text(), path).toBe(CROSS_SITE_REFUSED);
    }
    // The refused sign-out and text size did nothing.
    expect(await signedIn(reader)).toBe(true);
    expect(reader.cookie("text_size")).toBeUndefined();
  });

  it("still takes a mail client's one-click unsubscribe and the payment provider's callback", async () => {
    const oneClick = await fetch(`${server.url}/newsletters/unsubscribe?token=not-a-token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
      body: "List-Unsubscribe=One-Click",
    });
    // Past the cross-site rule: the token itself is what is refused.
    expect(oneClick.status).toBe(400);
    const webhook = await fetch(`${server.url}/api/payments/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(webhook.status).toBe(400);
  });
});

describe("sign-out", () => {
  it("does not sign out on a GET from another site: it asks, and the button signs out", async () => {
    const reader = await registeredReader(server.url);
    const notFromHere: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      { Referer: "https://evil.example/page" },
      {},
    ];
    for (const headers of notFromHere) {
      const res = await reader.request("/logout?return=/topics", { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const $ = cheerio.load(await res.text());
      const button = $("main form[method=post] button");
      expect(button.text()).toBe("Sign out");
      expect(button.closest("form").attr("action")).toBe("/logout?return=%2Ftopics");
      expect(await signedIn(reader)).toBe(true);
    }
    const confirmed = await reader.request("/logout?return=%2Ftopics", { form: {} });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/topics");
    expect(await signedIn(reader)).toBe(false);
  });

  it("signs out on a GET from this site (a link, or a browser that only sends a Referer)", async () => {
    const fromHere: Record<string, string>[] = [{ "Sec-Fetch-Site": "same-origin" }, { Referer: `${server.url}/topics` }];
    for (const headers of fromHere) {
      const reader = await registeredReader(server.url);
      const res = await reader.request("/logout?return=/topics", { headers });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/topics");
      expect(await signedIn(reader)).toBe(false);
    }
  });

  it("keeps return on this site", async () => {
    const reader = await registeredReader(server.url);
    const res = await reader.request("/logout?return=/./%5Cevil.example", { headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const page = await reader.request("/logout?return=/.//evil.example", { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(
      cheerio
        .load(await page.text())("main form")
        .attr("action"),
    ).toBe("/logout?return=%2F");
  });
});

describe("redirect targets", () => {
  const payloads = [
    "/./%5Cevil.example",
    "/.//evil.example",
    "/%2F%2Fevil.example",
    "/\\evil.example",
    "//evil.example",
    "https://evil.example",
    "/%09/evil.example",
  ];

  /** The Location stays on this site: a path that no browser reads as another host. */
  function expectOnSite(res: Response, label: string) {
    const location = res.headers.get("location") ?? "";
    expect(location, label).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, server.url).origin, label).toBe(server.url);
    expect(decodeURIComponent(location), label).not.toMatch(/evil/);
  }

  it("registration ends on this site", async () => {
    const reader = new Reader(server.url);
    const page = cheerio.load(await (await reader.request("/register?redirectTo=/.//evil.example")).text());
    expect(page("input[name=redirectTo]").val()).toBe("/");
    const res = await reader.request("/register", {
      form: {
        firstName: "Nell",
        lastName: "Ransome",
        emailAddress: `redirect.${Date.now()}@example.org`,
        password: "Lantern5!quay",
        redirectTo: "/.//evil.example",
      },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?registration=success");
  });

  it("sign-in, dismiss and text size stay on this site", async () => {
    const reader = await registeredReader(server.url);
    for (const payload of payloads) {
      expectOnSite(await reader.request("/dismiss", { form: { item: "onboarding", redirectTo: payload } }), `dismiss ${payload}`);
      expectOnSite(
        await reader.request("/preferences/text-size", { form: { size: "large", redirectTo: payload } }),
        `text size ${payload}`,
      );
      const signIn = cheerio.load(
        await (await new Reader(server.url).request(`/sign-in?redirectTo=${encodeURIComponent(payload)}`)).text(),
      );
      expect(signIn("input[name=redirectTo]").val(), `sign-in ${payload}`).toBe("/");
    }
    const wrong = await new Reader(server.url).request("/sign-in", {
      form: { username: "nobody@example.org", password: "x", redirectTo: "/.//evil.example" },
    });
    expect(wrong.headers.get("location")).toBeNull();
  });
});

describe("headers", () => {
  const SECURITY = ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"];

  it("puts the security headers on every kind of response", async () => {
    const reader = await registeredReader(server.url);
    const kinds: [string, () => Promise<Response>][] = [
      ["document", () => reader.request("/")],
      ["data request", () => reader.request("/topics.data")],
      ["loader redirect", () => new Reader(server.url).request("/my-account")],
      ["action redirect", () => reader.request("/preferences/text-size", { form: { size: "large", redirectTo: "/" } })],
      ["service", () => reader.request("/service/user/quota")],
      ["robots.txt", () => reader.request("/robots.txt")],
      ["feed", () => reader.request("/feeds/latest.xml")],
      ["api", () => reader.request("/api/recaptcha/enabled")],
      ["download refused", () => reader.request("/download/order/no-such-order/1")],
      ["404", () => reader.request("/no-such-page")],
      ["error page", () => reader.request("/dismiss")],
    ];
    for (const [kind, send] of kinds) {
      const res = await send();
      await res.arrayBuffer();
      for (const name of SECURITY) expect(res.headers.get(name), `${kind} ${name}`).toBeTruthy();
      expect(res.headers.get("x-content-type-options"), kind).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), kind).toMatch(/frame-ancestors 'self'/);
      // SITE_URL is http here: no HSTS.
      expect(res.headers.get("strict-transport-security"), kind).toBeNull();
    }
  });

  it("marks account, checkout and order pages no-store", async () => {
    const reader = await registeredReader(server.url);
    const guest = new Reader(server.url);
    const pages: [Reader, string][] = [
      ...[
        "/my-account",
        "/my-account/gifts",
        "/my-account/billing",
        "/my-account/billing/card",
        "/my-account/data",
        "/my-account/data.json",
        "/my-account/delete",
        "/my-library",
        "/shopping-cart",
        "/shipping-payment",
        "/review-order",
        "/subscriptions/checkout?plan=digital",
        "/order/no-such-order",
        "/registration-complete?order=x",
        "/my-account.data",
      ].map((path): [Reader, string] => [reader, path]),
      ...["/sign-in", "/register", "/forgot-password", "/reset-password?token=x"].map((path): [Reader, string] => [guest, path]),
    ];
    for (const [client, path] of pages) {
      const res = await client.request(path);
      await res.arrayBuffer();
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
    const article = await reader.request("/topics");
    expect(article.headers.get("cache-control")).not.toBe("no-store");
  });

  it("adds HSTS when SITE_URL is https", async () => {
    const https = await startBuiltServer({ SITE_URL: "https://www.meridian.example" });
    try {
      for (const path of ["/", "/robots.txt", "/topics.data"]) {
        const res = await fetch(`${https.url}${path}`, { redirect: "manual" });
        await res.arrayBuffer();
        expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
      }
    } finally {
      await https.stop();
    }
  });
});
