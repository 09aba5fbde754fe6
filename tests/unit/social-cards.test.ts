import { renderAsync } from "@resvg/resvg-js";
import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { episodeCover, socialCard } from "~/server/images/art";
import { rasterFontFiles, svgToPng, withDejaVuFamilies } from "~/server/images/raster";
import { PNG_RGB, pngHeader } from "~/tests/helpers/png";

// The PNGs the site draws (social cards, podcast artwork, covers for structured data) are RGB:
// podcast directories refuse artwork with an alpha channel. resvg draws RGBA, so the site writes
// the PNG itself; resvg, reading that PNG back as an image, is the independent decoder here.

const SAMPLE = `<svg xmlns="http://www.w3.org/2000/svg" width="97" height="41"><rect width="100%" height="100%" fill="#1f3a5f"/><circle cx="30" cy="20" r="16" fill="#fff" fill-opacity="0.3"/><text x="40" y="30" font-size="22" fill="#e8c547" font-family="Georgia, serif">Ag</text><rect x="80" y="0" width="17" height="41" fill="#7a2e2e"/></svg>`;

/** An SVG's pixels as resvg draws them, on white, with the site's fonts. */
async function pixels(svg: string, width: number): Promise<Buffer> {
  const options = {
    fitTo: { mode: "width", value: width },
    background: "#fff",
    font: { loadSystemFonts: false, fontFiles: rasterFontFiles() },
  } as const;
  return (await renderAsync(withDejaVuFamilies(svg), options)).pixels;
}

describe("the PNGs the site draws", () => {
  it("are 8-bit RGB, with no alpha channel, and read back pixel for pixel as drawn", async () => {
    const png = await svgToPng(SAMPLE, { width: 97 });
    expect(pngHeader(png)).toEqual({ width: 97, height: 41, bitDepth: 8, colourType: PNG_RGB });
    const readBack = await pixels(
      `<svg xmlns="http://www.w3.org/2000/svg" width="97" height="41"><image width="97" height="41" href="data:image/png;base64,${png.toString("base64")}"/></svg>`,
      97,
    );
    expect(readBack.length).toBe(97 * 41 * 4);
    expect(readBack.equals(await pixels(SAMPLE, 97))).toBe(true);
  });
});

describe("a social card", () => {
  it("shows the title's own characters, escaped, and ends a title too long for the card with an ellipsis", () => {
    const long = `Why <Boards> & "Owners" ${"keep asking the same question again ".repeat(6)}`;
    const $ = cheerio.load(socialCard({ key: "k", kicker: "Strategy & Risk", title: long }), { xml: true });
    const title = $("text[font-weight=700]")
      .map((_, t) => $(t).text())
      .get();
    expect(title.length).toBe(4);
    expect(title.at(-1)!.endsWith("…")).toBe(true);
    expect(long.startsWith(title.join(" ").slice(0, -1))).toBe(true);
    expect($("text").first().text()).toBe("MERIDIAN REVIEW");
    expect($("text:contains('STRATEGY & RISK')")).toHaveLength(1);
  });

  it("keeps a title beside a picture to the left of it", () => {
    const cover = episodeCover(
      { slug: "s", title: "Show", serial: true },
      { id: 1, title: "An Episode", season: 2, episode: 3, episodeType: "bonus" },
    );
    const $ = cheerio.load(
      socialCard({ key: "s", title: "A title long enough to wrap onto a second line", picture: { svg: cover, width: 600, height: 600 } }),
      {
        xml: true,
      },
    );
    const picture = $("svg > svg").last();
    const left = Number(picture.attr("x"));
    expect(left + Number(picture.attr("width"))).toBeLessThanOrEqual(1200 - 64);
    $("text[font-weight=700]").each((_, t) => {
      const length = Number($(t).attr("textLength") ?? $(t).text().length * 54 * 0.6);
      expect(Number($(t).attr("x")) + length, $(t).text()).toBeLessThan(left);
    });
    expect(cheerio.load(cover, { xml: true })("text:contains('SEASON 2 · EPISODE 3 · BONUS')")).toHaveLength(1);
  });
});
