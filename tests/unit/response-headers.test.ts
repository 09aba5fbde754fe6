import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applySecurityHeaders, hardenResponse, isPrivatePage } from "~/server/http/response-headers";

const http = { siteUrl: "http://localhost:3000" };
const https = { siteUrl: "https://www.meridian.example" };

describe("security headers", () => {
  it("adds HSTS only for an https site", () => {
    const secure = new Headers();
    applySecurityHeaders(secure, https);
    expect(secure.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    const plain = new Headers();
    applySecurityHeaders(plain, http);
    expect(plain.get("Strict-Transport-Security")).toBeNull();
  });

  it("lets only the video embeds be framed by other sites", () => {
    const embed = hardenResponse("/video/embed/1/x", new Response("x"), http);
    expect(embed.headers.get("Content-Security-Policy")).toMatch(/frame-ancestors \*/);
    expect(embed.headers.get("X-Frame-Options")).toBeNull();
    const page = hardenResponse("/topics", new Response("x"), http);
    expect(page.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
  });

  it("keeps a document's own nonce CSP, and works on responses whose headers cannot change", () => {
    const document = new Response("x", { headers: { "Content-Security-Policy": "script-src 'nonce-abc'" } });
    expect(hardenResponse("/", document, https).headers.get("Content-Security-Policy")).toBe("script-src 'nonce-abc'");
    const immutable = Response.redirect("http://localhost:3000/topics", 302);
    const hardened = hardenResponse("/x", immutable, https);
    expect(hardened.status).toBe(302);
    expect(hardened.headers.get("Location")).toBe("http://localhost:3000/topics");
    expect(hardened.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(hardened.headers.get("Strict-Transport-Security")).toBeTruthy();
  });

  it("marks account, checkout and order pages and their data requests no-store, and nothing else", () => {
    for (const page of [
      "/my-account",
      "/my-account/gifts",
      "/my-account.data",
      "/my-account/data",
      "/my-account/data.json",
      "/my-account/delete",
      "/my-library/library/x",
      "/shopping-cart",
      "/shopping-cart/added",
      "/shipping-payment",
      "/review-order",
      "/registration-complete",
      "/order/abc",
      "/subscriptions/checkout",
      "/subscriptions/receipt",
      "/sign-in",
      "/register",
      "/reset-password",
      "/forgot-password",
      "/logout",
      "/preview/7.1773396000.abc",
    ]) {
      expect(isPrivatePage(page), page).toBe(true);
    }
    for (const page of [
      "/",
      "/topics",
      "/my-accounts",
      "/registered",
      "/2026/01/x",
      "/subscriptions",
      "/orders",
      "/_root.data",
      "/previews",
    ]) {
      expect(isPrivatePage(page), page).toBe(false);
    }
    expect(
      hardenResponse("/sign-in", new Response("x", { headers: { "Cache-Control": "public, max-age=60" } }), http).headers.get(
        "Cache-Control",
      ),
    ).toBe("no-store");
  });
});

describe("redirects in app code", () => {
  it("come from app/lib/http/responses.server (with the security headers), never straight from @remix-run/node", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(file) && file !== path.join("app", "lib", "http", "responses.server.ts")) {
          if (/import \{[^}]*\bredirect(Document)?\b[^}]*\} from "@remix-run\/node"/.test(fs.readFileSync(file, "utf8")))
            offenders.push(file);
        }
      }
    };
    walk("app");
    expect(offenders).toEqual([]);
  });
});
