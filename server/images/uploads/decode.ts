import type { OutputInfo, Sharp } from "sharp";
import type { ImageFormat } from "~/server/db/schema";
import { IMAGE_WIDTHS, variantHeight, variantWidths, type ImageVariantFormat } from "~/shared/uploaded-images";

// An upload is judged by its bytes alone: its first bytes must be a JPEG's, a PNG's or a WebP's,
// and sharp must decode it whole as that same format. Its name and the type the client gave
// are never asked. sharp is loaded at the first upload: most processes never decode one.

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/**
 * Pixels an upload may have (a 64-megapixel photo is larger than most cameras make): a small
 * file that unpacks to a huge picture (a decompression bomb) is refused before it is decoded.
 */
export const MAX_UPLOAD_PIXELS = 64_000_000;

export type UploadRefusal = "not-an-image" | "too-large" | "too-many-pixels";

export interface DecodedUpload {
  format: ImageFormat;
  /** Its size once turned upright by its EXIF orientation. */
  width: number;
  height: number;
}

export interface EncodedVariant {
  width: number;
  height: number;
  format: ImageVariantFormat;
  data: Buffer;
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The format the first bytes announce, among those accepted. */
function announcedFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x89, ...ascii("PNG\r\n"), 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return undefined;
}

const DECODE_OPTIONS = { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: "error" } as const;

/**
 * Decodes an upload whole, turned upright and brought to the widest variant's width at most, as
 * raw sRGB pixels for the variants to be made from; or says why it is refused. A truncated or
 * corrupt file fails in the decoding.
 */
export async function decodeUpload(
  bytes: Uint8Array,
): Promise<{ ok: true; upload: DecodedUpload; pixels: { data: Buffer; info: OutputInfo } } | { ok: false; reason: UploadRefusal }> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) return { ok: false, reason: "too-large" };
  const format = announcedFormat(bytes);
  if (!format) return { ok: false, reason: "not-an-image" };
  const { default: sharp } = await import("sharp");
  try {
    const metadata = await sharp(bytes, DECODE_OPTIONS).metadata();
    if (metadata.format !== format) return { ok: false, reason: "not-an-image" };
    const pixels = await sharp(bytes, DECODE_OPTIONS)
      .autoOrient()
      .resize({ width: IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1], withoutEnlargement: true })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { ok: true, upload: { format, width: metadata.autoOrient.width, height: metadata.autoOrient.height }, pixels };
  } catch (error) {
    return { ok: false, reason: /pixel limit/i.test((error as Error).message) ? "too-many-pixels" : "not-an-image" };
  }
}

/**
 * The variants of a decoded upload: each of its widths in AVIF, WebP and JPEG. Nothing of the
 * upload's metadata (EXIF and its GPS position, XMP, comments) is written to them.
 */
export async function encodeVariants(upload: DecodedUpload, pixels: { data: Buffer; info: OutputInfo }): Promise<EncodedVariant[]> {
  const { width, height, channels } = pixels.info;
  const { default: sharp } = await import("sharp");
  const source = sharp(pixels.data, { raw: { width, height, channels } });
  const jobs = variantWidths(upload.width).flatMap((w) => {
    const resized = () => source.clone().resize({ width: w, height: variantHeight(upload, w), fit: "fill" });
    const encoded: [ImageVariantFormat, Sharp][] = [
      // Effort 2 of 9: a fifth of the default's time for a file a tenth larger.
      ["avif", resized().avif({ quality: 55, effort: 2 })],
      ["webp", resized().webp({ quality: 78 })],
      // JPEG has no transparency: a transparent PNG's JPEG shows it on white, as a page would.
      ["jpeg", resized().flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true })],
    ];
    return encoded.map(async ([format, pipeline]) => ({
      width: w,
      height: variantHeight(upload, w),
      format,
      data: await pipeline.toBuffer(),
    }));
  });
  return Promise.all(jobs);
}
