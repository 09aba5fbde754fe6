import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { renderAsync, type ResvgRenderOptions } from "@resvg/resvg-js";
import { LRUCache } from "lru-cache";

// SVG drawn by the site, as PNG for the places that take no SVG (podcast directories, chart
// downloads for slides). resvg draws it with the DejaVu fonts from node_modules and never the
// machine's own, so the picture is the same on every server, with or without fonts installed.
//
// resvg (2.6) reads a font-family list name by name, but does not map the generic names
// (`serif`, `sans-serif`) to its serifFamily and sansSerifFamily options: a list such as
// "Georgia, serif" finds no face and falls back to the default family, whatever that option
// says. So each list is rewritten to the one DejaVu family it stands for before drawing.

const SERIF = "DejaVu Serif";
const SANS = "DejaVu Sans";
const MONO = "DejaVu Sans Mono";

const FONT_FILES = [
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
  "DejaVuSerif-Italic.ttf",
  "DejaVuSerif-BoldItalic.ttf",
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSans-Oblique.ttf",
  "DejaVuSans-BoldOblique.ttf",
  "DejaVuSansMono.ttf",
  "DejaVuSansMono-Bold.ttf",
];

/** Families a list may name that are serif faces, besides the generic `serif`. */
const SERIF_NAMES = new Set(["serif", "georgia", "times", "times new roman", "dejavu serif", "garamond", "cambria"]);
const MONO_NAMES = new Set(["monospace", "courier", "courier new", "menlo", "consolas", "dejavu sans mono"]);

let fontFiles: string[] | undefined;

/**
 * The font files, found from this module as Node resolves a package: the same from the sources
 * (tests, tsx) and from either bundle (`build/server.js`, `build/server/index.js`), which keep
 * node_modules outside them.
 */
export function rasterFontFiles(): string[] {
  if (!fontFiles) {
    const manifest = createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json");
    const dir = path.join(path.dirname(manifest), "ttf");
    fontFiles = FONT_FILES.map((file) => path.join(dir, file));
  }
  return fontFiles;
}

/** The DejaVu family a CSS font-family list stands for: its first serif or monospace name decides. */
export function dejaVuFamily(list: string): string {
  for (const raw of list.split(",")) {
    const name = raw
      .trim()
      .replace(/^["']|["']$/g, "")
      .toLowerCase();
    if (SERIF_NAMES.has(name)) return SERIF;
    if (MONO_NAMES.has(name)) return MONO;
  }
  return SANS;
}

/** Every font-family (attribute or style property) in the document, named as the DejaVu family it stands for. */
export function withDejaVuFamilies(svg: string): string {
  return svg
    .replace(/font-family="([^"]*)"/g, (_, list: string) => `font-family="${dejaVuFamily(list.replace(/&quot;/g, '"'))}"`)
    .replace(/font-family='([^']*)'/g, (_, list: string) => `font-family='${dejaVuFamily(list.replace(/&apos;|&#x27;/g, "'"))}'`)
    .replace(/font-family:\s*([^;"']+)/g, (_, list: string) => `font-family: ${dejaVuFamily(list)}`);
}

export interface RasterSize {
  /** Width of the PNG in pixels; the height follows the picture's proportions. */
  width: number;
}

/**
 * The PNG of an SVG at the width asked for, drawn on the thread pool (a large picture takes a
 * tenth of a second or more, which the event loop must not wait out). The site's pictures are
 * opaque, so the PNG is RGB (colour type 2): podcast directories refuse artwork with an alpha
 * channel, and the file is a quarter smaller without one.
 */
export async function svgToPng(svg: string, size: RasterSize): Promise<Buffer> {
  const options: ResvgRenderOptions = {
    fitTo: { mode: "width", value: Math.round(size.width) },
    // Anything the picture leaves uncovered is white, as a page shows it.
    background: "#fff",
    font: {
      loadSystemFonts: false,
      fontFiles: rasterFontFiles(),
      defaultFontFamily: SANS,
      serifFamily: SERIF,
      sansSerifFamily: SANS,
      monospaceFamily: MONO,
    },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: "off",
  };
  const image = await renderAsync(withDejaVuFamilies(svg), options);
  return rgbPng(image.width, image.height, image.pixels);
}

const deflate = promisify(zlib.deflate);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Opaque RGBA pixels (resvg's, drawn on a background) as a PNG of 8-bit RGB: each row is the
 * filter byte 0 and the pixels without their alpha, deflated on the thread pool.
 */
export async function rgbPng(width: number, height: number, rgba: Uint8Array): Promise<Buffer> {
  const stride = width * 3 + 1;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0, from = 0, to = 0; y < height; y++) {
    rows[to++] = 0;
    for (let x = 0; x < width; x++, from += 4) {
      rows[to++] = rgba[from]!;
      rows[to++] = rgba[from + 1]!;
      rows[to++] = rgba[from + 2]!;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // colour type: RGB
  // Compression, filter method and interlace stay 0: deflate, adaptive filters, none.
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", header), pngChunk("IDAT", await deflate(rows)), pngChunk("IEND", Buffer.alloc(0))]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * PNGs drawn once and then kept, up to `max` of them (the least recently used go first). Two
 * requests for one picture while it is being drawn share the drawing; one that failed is not kept.
 */
export class KeptPngs {
  private readonly kept: LRUCache<string, Promise<Buffer>>;

  constructor(max: number) {
    this.kept = new LRUCache({ max });
  }

  get(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
    let png = this.kept.get(key);
    if (!png) {
      const drawing = draw();
      this.kept.set(key, drawing);
      drawing.catch(() => {
        if (this.kept.peek(key) === drawing) this.kept.delete(key);
      });
      png = drawing;
    }
    return png;
  }
}
