import * as cheerio from "cheerio";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResponsiveImage } from "~/app/components/ResponsiveImage";

const ID = "0b5e7c1a-1d2f-4a3b-8c4d-5e6f7a8b9c0d";

describe("ResponsiveImage", () => {
  it("renders a <picture> with AVIF and WebP sources and a sized JPEG <img>, all with the given sizes", () => {
    const $ = cheerio.load(
      renderToStaticMarkup(
        <ResponsiveImage
          image={{ id: ID, width: 2400, height: 1350, alt: "Delegates at a summit" }}
          sizes="(min-width: 60rem) 40rem, 100vw"
          largest
        />,
      ),
    );
    const sources = $("picture > source")
      .toArray()
      .map((s) => $(s));
    expect(sources.map((s) => s.attr("type"))).toEqual(["image/avif", "image/webp"]);
    expect(sources[0]!.attr("srcset")).toContain(`/images/${ID}/1920.avif 1920w`);
    const img = $("picture > img");
    expect(img.attr("src")).toBe(`/images/${ID}/960.jpg`);
    expect(img.attr("srcset")).toContain(`/images/${ID}/320.jpg 320w`);
    expect([img.attr("width"), img.attr("height"), img.attr("alt")]).toEqual(["1920", "1080", "Delegates at a summit"]);
    for (const element of [...sources, img]) expect(element.attr("sizes")).toBe("(min-width: 60rem) 40rem, 100vw");
    expect(img.attr("fetchpriority")).toBe("high");
    expect(img.attr("loading")).toBeUndefined();
  });

  it("lets any other image wait until it nears the screen", () => {
    const $ = cheerio.load(renderToStaticMarkup(<ResponsiveImage image={{ id: ID, width: 640, height: 480, alt: null }} sizes="20rem" />));
    expect($("img").attr("loading")).toBe("lazy");
    expect($("img").attr("alt")).toBe("");
  });
});
