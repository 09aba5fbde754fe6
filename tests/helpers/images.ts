import zlib from "node:zlib";
import sharp from "sharp";

// Pictures for the upload tests, made on the spot: a photo-like drawing in each accepted format,
// and the files that must be refused.

/** A drawing of this size: a colour field with a disc and a bar, so resizing has edges to keep. */
function drawing(width: number, height: number, alpha = false) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#1d4e89"/>
    <rect x="0" y="${height * 0.8}" width="${width}" height="${height * 0.1}" fill="#f2a541"/></svg>`;
  return sharp({
    create: { width, height, channels: alpha ? 4 : 3, background: { r: 214, g: 94, b: 61, alpha: alpha ? 0.4 : 1 } },
  }).composite([{ input: Buffer.from(svg) }]);
}

export const jpegOf = (width: number, height: number) => drawing(width, height).jpeg({ quality: 90 }).toBuffer();
export const pngOf = (width: number, height: number, alpha = false) => drawing(width, height, alpha).png().toBuffer();
export const webpOf = (width: number, height: number) => drawing(width, height).webp().toBuffer();
export const gifOf = (width: number, height: number) => drawing(width, height).gif().toBuffer();

/** Where a camera was (London), as EXIF's GPS fields. */
export const GPS_EXIF = {
  IFD0: { Make: "Meridian Test Camera" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 2583/100", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 3932/100" },
};

/** A JPEG as a phone takes it: stored sideways (wide) with orientation 6, and where it was taken. */
export const jpegWithGps = (width: number, height: number) =>
  drawing(width, height).jpeg().withExif(GPS_EXIF).withMetadata({ orientation: 6 }).toBuffer();

/** Whether an EXIF block holds a pointer to GPS fields (tag 0x8825), in either byte order. */
export const exifHasGps = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG header claiming width × height pixels over a few bytes of
 * data (a real one compresses a blank field to nearly nothing).
 */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(Buffer.alloc(1024))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
