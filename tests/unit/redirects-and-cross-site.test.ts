import { describe, expect, it } from "vitest";
import { returnPath, safeRedirectPath, withQueryValue } from "~/app/lib/http/redirects";
import { foreignOriginAsCrossSite, isCrossSite } from "~/server/http/cross-site";

describe("redirect targets", () => {
  it("keeps paths on this site, normalised", () => {
    expect(safeRedirectPath("/2025/01/x?y=1#notes")).toBe("/2025/01/x?y=1#notes");
    expect(safeRedirectPath("/my-library?done=saved&x=//y")).toBe("/my-library?done=saved&x=//y");
    expect(safeRedirectPath("/a/b/../c")).toBe("/a/c");
    expect(safeRedirectPath("/search?q=caf%C3%A9")).toBe("/search?q=caf%C3%A9");
  });

  it("leads sign-in, registration and menu links past those pages to where they lead, so none wraps another", () => {
    expect(returnPath("/topics?page=2")).toBe("/topics?page=2");
    expect(returnPath("/sign-in?redirectTo=%2Ftopics")).toBe("/topics");
    expect(returnPath("/menu?return=%2Fregister%3FredirectTo%3D%252Fsign-in%253FredirectTo%253D%25252Fstore")).toBe("/store");
    expect(returnPath("/register")).toBe("/");
    expect(returnPath("/sign-in?redirectTo=%2F%2Fevil.example")).toBe("/");
    expect(returnPath("/registration-complete?order=1")).toBe("/registration-complete?order=1");
    // Wrapped deeper than any link of the site ever wrapped them: the home page.
    const wrapped = Array.from({ length: 6 }).reduce<string>((inner) => `/sign-in?redirectTo=${encodeURIComponent(inner)}`, "/store");
    expect(returnPath(wrapped)).toBe("/");
  });

  it.each([
    "/./%5Cevil.example",
    "/.//evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "//evil.example",
    "///evil.example",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "/x/%2e%2e/%2Fevil.example",
    "https://evil.example",
    "http:evil.example",
    "/%09/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%0d%0aSet-Cookie:x=y",
    "/%E0%A4%A",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/" + "x".repeat(3000),
  ])("sends %j to the fallback", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
    expect(safeRedirectPath(target, "/my-library")).toBe("/my-library");
  });

  it("drops an article's first-visit cookie check from where the reader returns to", () => {
    expect(safeRedirectPath("/2026/10/a-story?cookie-check=1795572109311")).toBe("/2026/10/a-story");
    expect(safeRedirectPath("/2026/10/a-story?paywall=sign-in&cookie-check=1#paywall")).toBe("/2026/10/a-story?paywall=sign-in#paywall");
    expect(safeRedirectPath("/search?q=a%20b")).toBe("/search?q=a%20b");
  });

  it("refuses what is not text", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined, "/x")).toBe("/x");
  });

  it("adds a query value to a safe path", () => {
    expect(withQueryValue(safeRedirectPath("/.//evil.example"), "registration", "success")).toBe("/?registration=success");
    expect(withQueryValue("/topics?a=1", "registration", "success")).toBe("/topics?a=1&registration=success");
  });
});

describe("cross-site requests", () => {
  const own = ["https://www.meridian.example"];
  const headers = (h: Record<string, string>) => new Headers(h);

  it("believes the browser's Sec-Fetch-Site first", () => {
    expect(isCrossSite(headers({ "Sec-Fetch-Site": "same-origin", Origin: "https://evil.example" }), own)).toBe(false);
    expect(isCrossSite(headers({ "Sec-Fetch-Site": "none" }), own)).toBe(false);
    expect(isCrossSite(headers({ "Sec-Fetch-Site": "cross-site", Origin: own[0]! }), own)).toBe(true);
    expect(isCrossSite(headers({ "Sec-Fetch-Site": "same-site" }), own)).toBe(true);
  });

  it("falls back to Origin, and lets a client with neither through", () => {
    expect(isCrossSite(headers({ Origin: "https://evil.example" }), own)).toBe(true);
    expect(isCrossSite(headers({ Origin: "null" }), own)).toBe(true);
    expect(isCrossSite(headers({ Origin: own[0]! }), own)).toBe(false);
    expect(isCrossSite(headers({}), own)).toBe(false);
  });

  it("turns a foreign Origin on a post into Sec-Fetch-Site: cross-site, so Remix lets the action refuse it", () => {
    const post = new Request("https://www.meridian.example/sign-in", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: "a=b",
    });
    const passed = foreignOriginAsCrossSite(post, own);
    expect(passed.headers.get("Origin")).toBeNull();
    expect(passed.headers.get("Sec-Fetch-Site")).toBe("cross-site");
    expect(isCrossSite(passed.headers, own)).toBe(true);
    const ownPost = new Request("https://www.meridian.example/sign-in", { method: "POST", headers: { Origin: own[0]! }, body: "a=b" });
    expect(foreignOriginAsCrossSite(ownPost, own)).toBe(ownPost);
    const get = new Request("https://www.meridian.example/", { headers: { Origin: "https://evil.example" } });
    expect(foreignOriginAsCrossSite(get, own)).toBe(get);
  });
});
