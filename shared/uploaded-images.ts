// Uploaded images (ADR 077) as pages name them: each is kept at the responsive widths below in
// AVIF, WebP and JPEG, at /images/{id}/{width}.{avif|webp|jpg}. The widths follow from the
// image's own width alone, so a page lists its sources without asking the database.

export const IMAGE_WIDTHS = [320, 640, 960, 1280, 1920] as const;
export const IMAGE_VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type ImageVariantFormat = (typeof IMAGE_VARIANT_FORMATS)[number];

const EXTENSIONS: Record<ImageVariantFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };
export const IMAGE_CONTENT_TYPES: Record<ImageVariantFormat, string> = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" };

/** What a page needs of an uploaded image: its id, its size once upright, and its alt text. */
export interface ImageRef {
  id: string;
  width: number;
  height: number;
  alt: string | null;
}

/**
 * The widths an image of this width is kept at: the standard ones narrower than it, and its own
 * width when that is under the widest (an image narrower than 320 px is kept at its own width alone).
 */
export function variantWidths(width: number): number[] {
  const widest = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  return [...IMAGE_WIDTHS.filter((w) => w < Math.min(width, widest)), Math.min(width, widest)];
}

/** A variant's height: the image's proportions at that width. */
export const variantHeight = (image: Pick<ImageRef, "width" | "height">, width: number) =>
  Math.max(1, Math.round((image.height * width) / image.width));

export const imagePath = (id: string, width: number, format: ImageVariantFormat) => `/images/${id}/${width}.${EXTENSIONS[format]}`;

/** A variant's file name ("640.avif") read back; undefined for any other. */
export function parseVariantFile(file: string): { width: number; format: ImageVariantFormat } | undefined {
  const match = /^([1-9]\d{0,4})\.(avif|webp|jpg)$/.exec(file);
  if (!match) return undefined;
  return { width: Number(match[1]), format: match[2] === "jpg" ? "jpeg" : (match[2] as ImageVariantFormat) };
}

export interface ImageSources {
  /** <source> elements, best format first. */
  sources: { type: string; srcSet: string }[];
  /** The <img> inside: a JPEG every browser shows, with its own srcset, and the size it holds. */
  img: { src: string; srcSet: string; width: number; height: number; alt: string };
}

/** The largest width kept that is at most `atMost` (or the narrowest, if all are wider). */
function widthUpTo(image: Pick<ImageRef, "width">, atMost: number): number {
  const widths = variantWidths(image.width);
  return widths.filter((w) => w <= atMost).pop() ?? widths[0]!;
}

/** A <picture>'s sources for an uploaded image: AVIF and WebP for the browsers that take them, JPEG for all. */
export function imageSources(image: ImageRef): ImageSources {
  const widths = variantWidths(image.width);
  const srcSet = (format: ImageVariantFormat) => widths.map((w) => `${imagePath(image.id, w, format)} ${w}w`).join(", ");
  const widest = widths[widths.length - 1]!;
  return {
    sources: (["avif", "webp"] as const).map((format) => ({ type: IMAGE_CONTENT_TYPES[format], srcSet: srcSet(format) })),
    img: {
      src: imagePath(image.id, widthUpTo(image, 960), "jpeg"),
      srcSet: srcSet("jpeg"),
      width: widest,
      height: variantHeight(image, widest),
      alt: image.alt ?? "",
    },
  };
}

/** The JPEG width social networks are given: they show 1200 px wide at most. */
const OG_IMAGE_MAX_WIDTH = 1280;

export interface OgImage {
  url: string;
  type: string;
  width: number;
  height: number;
  alt: string;
}

/** An uploaded image as a page's og:image: a JPEG (the networks take no AVIF or WebP), at an absolute address on siteUrl. */
export function ogImage(image: ImageRef, siteUrl: string): OgImage {
  const width = widthUpTo(image, OG_IMAGE_MAX_WIDTH);
  return {
    url: `${siteUrl}${imagePath(image.id, width, "jpeg")}`,
    type: IMAGE_CONTENT_TYPES.jpeg,
    width,
    height: variantHeight(image, width),
    alt: image.alt ?? "",
  };
}
