/** A PNG's header (its IHDR chunk); throws for anything that is not a PNG. */
export function pngHeader(png: Buffer): { width: number; height: number; bitDepth: number; colourType: number } {
  if (png.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG: its signature is wrong");
  if (png.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("not a PNG: no IHDR chunk first");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24]!, colourType: png[25]! };
}

/** Width and height from a PNG's header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const { width, height } = pngHeader(png);
  return { width, height };
}

/** PNG colour type 2: red, green and blue, no alpha channel (6 is RGBA). */
export const PNG_RGB = 2;
