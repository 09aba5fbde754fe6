import { describe, expect, it } from "vitest";
import { imageSources, ogImage, parseVariantFile, variantWidths } from "~/shared/uploaded-images";

// How pages name an uploaded image's variants (ADR 077), without asking the database.

const ID = "0b5e7c1a-1d2f-4a3b-8c4d-5e6f7a8b9c0d";

describe("an uploaded image's variants", () => {
  it("are the standard widths narrower than the image, then its own width up to 1920", () => {
    expect(variantWidths(4000)).toEqual([320, 640, 960, 1280, 1920]);
    expect(variantWidths(1920)).toEqual([320, 640, 960, 1280, 1920]);
    expect(variantWidths(1000)).toEqual([320, 640, 960, 1000]);
    expect(variantWidths(640)).toEqual([320, 640]);
    expect(variantWidths(200)).toEqual([200]);
  });

  it("are named by width and extension, and nothing else reads as one", () => {
    expect(parseVariantFile("640.avif")).toEqual({ width: 640, format: "avif" });
    expect(parseVariantFile("1920.jpg")).toEqual({ width: 1920, format: "jpeg" });
    expect(parseVariantFile("320.webp")).toEqual({ width: 320, format: "webp" });
    for (const file of ["640.jpeg", "640.png", "0640.jpg", "640.jpg.html", "abc.jpg", "640", "-1.jpg", "123456.jpg"])
      expect(parseVariantFile(file), file).toBeUndefined();
  });
});

describe("imageSources", () => {
  it("lists AVIF, then WebP, each at every width, and a JPEG <img> with its own srcset and the widest variant's size", () => {
    expect(imageSources({ id: ID, width: 1000, height: 750, alt: "A chart on a whiteboard" })).toEqual({
      sources: [
        {
          type: "image/avif",
          srcSet: `/images/${ID}/320.avif 320w, /images/${ID}/640.avif 640w, /images/${ID}/960.avif 960w, /images/${ID}/1000.avif 1000w`,
        },
        {
          type: "image/webp",
          srcSet: `/images/${ID}/320.webp 320w, /images/${ID}/640.webp 640w, /images/${ID}/960.webp 960w, /images/${ID}/1000.webp 1000w`,
        },
      ],
      img: {
        src: `/images/${ID}/960.jpg`,
        srcSet: `/images/${ID}/320.jpg 320w, /images/${ID}/640.jpg 640w, /images/${ID}/960.jpg 960w, /images/${ID}/1000.jpg 1000w`,
        width: 1000,
        height: 750,
        alt: "A chart on a whiteboard",
      },
    });
  });

  it("gives an image without alt text an empty alt, and a small image its one width", () => {
    const { sources, img } = imageSources({ id: ID, width: 150, height: 100, alt: null });
    expect(sources.map((s) => s.srcSet)).toEqual([`/images/${ID}/150.avif 150w`, `/images/${ID}/150.webp 150w`]);
    expect(img).toMatchObject({ src: `/images/${ID}/150.jpg`, width: 150, height: 100, alt: "" });
  });
});

describe("ogImage", () => {
  it("is an absolute JPEG address, 1280 px wide at most, with the size and alt text", () => {
    expect(ogImage({ id: ID, width: 2400, height: 1600, alt: "A boardroom" }, "https://meridian.example")).toEqual({
      url: `https://meridian.example/images/${ID}/1280.jpg`,
      type: "image/jpeg",
      width: 1280,
      height: 853,
      alt: "A boardroom",
    });
    expect(ogImage({ id: ID, width: 800, height: 800, alt: null }, "http://localhost:3000")).toMatchObject({
      url: `http://localhost:3000/images/${ID}/800.jpg`,
      width: 800,
      height: 800,
    });
  });
});
