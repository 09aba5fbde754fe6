import { describe, expect, it } from "vitest";
import { PREVIEW_LINK_HOURS, previewPath, previewToken, readPreviewToken } from "~/server/desk/articles/preview";
import { previewOffer } from "~/server/paywall/preview-offers";
import type { OfferRules } from "~/server/paywall/offers";

// The preview's link and the access each of its views shows (ADR 079).

const SECRET = "unit-test-secret-0123456789abcdefghijklmnop";
const HOUR = 3_600_000;

describe("preview links", () => {
  const made = new Date("2026-03-10T09:20:00Z");

  it("work until a whole hour at least the link's lifetime ahead, and not a moment longer", () => {
    const token = previewToken(42, made, SECRET);
    const expires = new Date("2026-03-13T10:00:00Z");
    expect(token.split(".").slice(0, 2)).toEqual(["42", String(expires.getTime() / 1000)]);
    expect(expires.getTime() - made.getTime()).toBeGreaterThanOrEqual(PREVIEW_LINK_HOURS * HOUR);
    expect(readPreviewToken(token, made, SECRET)).toBe(42);
    expect(readPreviewToken(token, new Date(expires.getTime() - 1), SECRET)).toBe(42);
    expect(readPreviewToken(token, expires, SECRET)).toBeNull();
    // Made within the same hour, the link is the same one.
    expect(previewToken(42, new Date("2026-03-10T09:59:59Z"), SECRET)).toBe(token);
  });

  it("name no other article, and no other site's", () => {
    const [, expires, signature] = previewToken(42, made, SECRET).split(".");
    expect(readPreviewToken(`43.${expires}.${signature}`, made, SECRET)).toBeNull();
    expect(readPreviewToken(previewToken(42, made, SECRET), made, `${SECRET}x`)).toBeNull();
    for (const token of ["", "42", `42.${expires}`, `042.${expires}.${signature}`, `42.${expires}.${signature}=`])
      expect(readPreviewToken(token, made, SECRET), token).toBeNull();
  });

  it("give the desk a path in each view", () => {
    expect(previewPath(7, { now: made })).toMatch(/^\/preview\/7\.\d{10}\.[\w-]{43}$/);
    expect(previewPath(7, { now: made, view: "guest" })).toBe(previewPath(7, { now: made }));
    expect(previewPath(7, { now: made, view: "wall" })).toBe(`${previewPath(7, { now: made })}?view=wall`);
  });
});

describe("the preview's offers", () => {
  const rules: OfferRules = {
    guestLimit: 4,
    ascendLimit: 2,
    registeredLimit: 8,
    addressCeiling: 0,
    tags: { article: "a", top50: "t", cases: "c", "visual-library": "v" },
  };
  const article = { id: 1, tier: "article" as const, ascend: false };

  it("show a guest's first free read, a guest at the registration wall, and a subscriber's full text", () => {
    expect(previewOffer(rules, article, "guest")).toEqual({
      experience: "full-content",
      fullContent: true,
      wall: null,
      quota: { limit: 4, count: 1, remaining: 3 },
      meter: "article",
      abTag: "a",
    });
    expect(previewOffer(rules, article, "wall")).toMatchObject({
      experience: "enable-anonymous-paywall",
      fullContent: false,
      wall: "registration",
      quota: { limit: 4, count: 4, remaining: 0 },
    });
    expect(previewOffer(rules, article, "subscriber")).toMatchObject({ fullContent: true, wall: null, quota: null });
  });

  it("meter an Ascend article on the Ascend meter", () => {
    expect(previewOffer(rules, { ...article, ascend: true }, "guest")).toMatchObject({
      experience: "ascend-full-content",
      meter: "ascend",
      quota: { limit: 2, count: 1, remaining: 1 },
    });
  });
});
