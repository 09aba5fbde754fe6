import { describe, expect, it } from "vitest";
import { DESCRIPTION_MAX, seo, shortDescription } from "~/app/lib/content/seo";
import { ogImage } from "~/shared/uploaded-images";

describe("meta descriptions", () => {
  it("keeps a short description as it is, with its spacing made plain", () => {
    expect(shortDescription("  Why boards\n fail at succession.  ")).toBe("Why boards fail at succession.");
  });

  it("cuts a long one at a word, within 160 characters, ending in an ellipsis", () => {
    const long =
      "Most succession plans fail long before the search begins: boards wait for a crisis, name a favourite, " +
      "and discover too late that the bench they trusted was never tested in the role that mattered most.";
    const short = shortDescription(long);
    expect(short.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(short.endsWith("…")).toBe(true);
    expect(long.startsWith(short.slice(0, -1))).toBe(true);
    expect(long[short.length - 1]).toBe(" ");
  });

  it("cuts a description with no space to break at within 160 characters", () => {
    expect(shortDescription("x".repeat(400))).toBe(`${"x".repeat(DESCRIPTION_MAX - 1)}…`);
  });

  it("gives the page's description and og:description the short form", () => {
    const tags = seo({ title: "T", description: "word ".repeat(100), path: "/t", siteUrl: "https://example.test" }) as Record<
      string,
      unknown
    >[];
    const content = (match: (t: Record<string, unknown>) => boolean) => tags.find(match)?.content;
    expect(String(content((t) => t.name === "description")).length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(content((t) => t.property === "og:description")).toBe(content((t) => t.name === "description"));
  });
});

describe("social previews", () => {
  const tagsOf = (card?: { path: string; alt: string }) => {
    const tags = seo({ title: "T", description: "D", path: "/t", siteUrl: "https://example.test", card }) as Record<string, string>[];
    return Object.fromEntries(
      tags.filter((t) => t.property?.startsWith("og:image") || t.name === "twitter:card").map((t) => [t.property ?? t.name, t.content]),
    );
  };

  it("names the page's card as a 1200 × 630 PNG with its alt text, shown large on X", () => {
    expect(tagsOf({ path: "/art/card/article/a.png", alt: "Meridian Review: A" })).toEqual({
      "og:image": "https://example.test/art/card/article/a.png",
      "og:image:type": "image/png",
      "og:image:width": "1200",
      "og:image:height": "630",
      "og:image:alt": "Meridian Review: A",
      "twitter:card": "summary_large_image",
    });
  });

  it("shares a page with an uploaded image as that image's JPEG, at its size, on the site's address", () => {
    const image = ogImage(
      { id: "0b5e7c1a-1d2f-4a3b-8c4d-5e6f7a8b9c0d", width: 3000, height: 2000, alt: "A boardroom" },
      "https://example.test",
    );
    const tags = seo({ title: "T", description: "D", path: "/t", siteUrl: "https://example.test", image }) as Record<string, string>[];
    expect(Object.fromEntries(tags.filter((t) => t.property?.startsWith("og:image")).map((t) => [t.property, t.content]))).toEqual({
      "og:image": "https://example.test/images/0b5e7c1a-1d2f-4a3b-8c4d-5e6f7a8b9c0d/1280.jpg",
      "og:image:type": "image/jpeg",
      "og:image:width": "1280",
      "og:image:height": "853",
      "og:image:alt": "A boardroom",
    });
    expect(Object.fromEntries(tags.filter((t) => t.name?.startsWith("twitter:image")).map((t) => [t.name, t.content]))).toEqual({
      "twitter:image": "https://example.test/images/0b5e7c1a-1d2f-4a3b-8c4d-5e6f7a8b9c0d/1280.jpg",
      "twitter:image:alt": "A boardroom",
    });
  });

  it("shares a page that names no card of its own with the site's", () => {
    expect(tagsOf()).toMatchObject({
      "og:image": "https://example.test/art/card/page/home.png",
      "og:image:alt": "Meridian Review: Ideas and advice for leaders",
    });
  });
});
