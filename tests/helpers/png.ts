/** Width and height from a PNG's header (the IHDR chunk); throws for anything that is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG: its signature is wrong");
  if (png.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("not a PNG: no IHDR chunk first");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
