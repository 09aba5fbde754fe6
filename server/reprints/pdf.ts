// A small PDF 1.4 writer for article reprints. It uses only the standard Type 1 fonts
// every PDF reader has, so nothing is embedded, and wraps text with their AFM widths.
import { deflateSync } from "node:zlib";
import type { Block } from "../content/markdown";

export interface ReprintInput {
  title: string;
  dek: string;
  /** Display names. */
  authors: string[];
  /** Already formatted, e.g. "June 10, 2025". */
  published: string;
  blocks: Block[];
  /** Absolute URL of the article, printed in the footer. */
  sourceUrl: string;
  /** E.g. "Licensed to Ada Lovelace (ada@example.com) on November 23, 2026". */
  licensee: string;
  siteName: string;
  /** CreationDate of the document; the only part of the output that depends on the clock. */
  now?: Date;
}

export type FontName = "Helvetica" | "Helvetica-Bold" | "Times-Roman" | "Times-Italic";

/** Resource names the content streams use for the fonts. */
const FONT_RESOURCES: Record<FontName, string> = {
  Helvetica: "F1",
  "Helvetica-Bold": "F2",
  "Times-Roman": "F3",
  "Times-Italic": "F4",
};

// Advance widths in 1/1000 em from Adobe's AFM files, for WinAnsi codes 32–255 in order;
// 0 marks the codes WinAnsi leaves undefined.
const WIDTHS: Record<FontName, readonly number[]> = {
  "Helvetica": [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
  ],
  "Helvetica-Bold": [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
    556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
    611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
  ],
  "Times-Roman": [
    250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278,
    500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444,
    921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889, 722, 722,
    556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469, 500,
    333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500,
    500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541, 0,
    500, 0, 333, 500, 444, 1000, 500, 500, 333, 1000, 556, 333, 889, 0, 611, 0,
    0, 333, 333, 444, 444, 350, 500, 1000, 333, 980, 389, 333, 722, 0, 444, 722,
    250, 333, 500, 500, 500, 500, 200, 500, 333, 760, 276, 500, 564, 333, 760, 333,
    400, 564, 300, 300, 333, 500, 453, 250, 333, 300, 310, 500, 750, 750, 750, 444,
    722, 722, 722, 722, 722, 722, 889, 667, 611, 611, 611, 611, 333, 333, 333, 333,
    722, 722, 722, 722, 722, 722, 722, 564, 722, 722, 722, 722, 722, 722, 556, 500,
    444, 444, 444, 444, 444, 444, 667, 444, 444, 444, 444, 444, 278, 278, 278, 278,
    500, 500, 500, 500, 500, 500, 500, 564, 500, 500, 500, 500, 500, 500, 500, 500,
  ],
  "Times-Italic": [
    250, 333, 420, 500, 500, 833, 778, 214, 333, 333, 500, 675, 250, 333, 250, 278,
    500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 333, 333, 675, 675, 675, 500,
    920, 611, 611, 667, 722, 611, 611, 722, 722, 333, 444, 667, 556, 833, 667, 722,
    611, 722, 611, 500, 556, 722, 611, 833, 611, 556, 556, 389, 278, 389, 422, 500,
    333, 500, 500, 444, 500, 444, 278, 500, 500, 278, 278, 444, 278, 722, 500, 500,
    500, 500, 389, 389, 278, 500, 444, 667, 444, 444, 389, 400, 275, 400, 541, 0,
    500, 0, 333, 500, 556, 889, 500, 500, 333, 1000, 500, 333, 944, 0, 556, 0,
    0, 333, 333, 556, 556, 350, 500, 889, 333, 980, 389, 333, 667, 0, 389, 556,
    250, 389, 500, 500, 500, 500, 275, 500, 333, 760, 276, 500, 675, 333, 760, 333,
    400, 675, 300, 300, 333, 500, 523, 250, 333, 300, 310, 500, 750, 750, 750, 500,
    611, 611, 611, 611, 611, 611, 889, 667, 611, 611, 611, 611, 333, 333, 333, 333,
    722, 667, 722, 722, 722, 722, 722, 675, 722, 722, 722, 722, 722, 556, 611, 500,
    500, 500, 500, 500, 500, 500, 667, 444, 444, 444, 444, 444, 278, 278, 278, 278,
    500, 500, 500, 500, 500, 500, 500, 675, 500, 500, 500, 500, 500, 444, 500, 444,
  ],
};

// WinAnsi codes 128–159 hold typographic characters; 32–126 and 160–255 match Unicode.
const WIN_ANSI_EXTRAS: Record<number, number> = {
  0x20ac: 128, 0x201a: 130, 0x0192: 131, 0x201e: 132, 0x2026: 133, 0x2020: 134, 0x2021: 135,
  0x02c6: 136, 0x2030: 137, 0x0160: 138, 0x2039: 139, 0x0152: 140, 0x017d: 142, 0x2018: 145,
  0x2019: 146, 0x201c: 147, 0x201d: 148, 0x2022: 149, 0x2013: 150, 0x2014: 151, 0x02dc: 152,
  0x2122: 153, 0x0161: 154, 0x203a: 155, 0x0153: 156, 0x017e: 158, 0x0178: 159,
};

const BULLET = "\x95";
const ELLIPSIS = "\x85";

/**
 * Text as a string of WinAnsi codes (one char per byte): white space becomes a plain space
 * (a no-break space stays one), invisible format characters go, anything else WinAnsi
 * cannot show becomes "?".
 */
function toWinAnsi(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    if (/[\u00ad\u200b-\u200d\u2060\ufeff]/.test(ch)) continue;
    if (ch !== "\u00a0" && /\s/.test(ch)) {
      out += " ";
      continue;
    }
    const cp = ch.codePointAt(0)!;
    const code = (cp >= 32 && cp <= 126) || (cp >= 160 && cp <= 255) ? cp : WIN_ANSI_EXTRAS[cp];
    out += String.fromCharCode(code ?? 63);
  }
  return out;
}

/** Width in points of a WinAnsi string set in `font` at `size`, without kerning. */
export function stringWidth(winAnsi: string, font: FontName, size: number): number {
  const widths = WIDTHS[font];
  let units = 0;
  for (let i = 0; i < winAnsi.length; i++) units += widths[winAnsi.charCodeAt(i) - 32] ?? 0;
  return (units * size) / 1000;
}

// ---- Line breaking ----

interface Segment {
  text: string;
  /** Whether a space separates it from the previous segment. */
  spaced: boolean;
}

/** Words, with compounds split after their hyphens and dashes so lines may break there. */
function segments(text: string): Segment[] {
  return text
    .split(" ")
    .filter(Boolean)
    .flatMap((word) =>
      word.split(/(?<=\p{L}[-\x96\x97])(?=\p{L})/u).map((part, i) => ({ text: part, spaced: i === 0 })),
    );
}

/** Greedy line breaking; a word too long for a line of its own is split between characters. */
function wrapText(text: string, font: FontName, size: number, maxWidth: number): string[] {
  const fits = (s: string) => stringWidth(s, font, size) <= maxWidth;
  const lines: string[] = [];
  let line = "";
  for (const segment of segments(text)) {
    const joined = line && segment.spaced ? `${line} ${segment.text}` : line + segment.text;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = segment.text;
    while (!fits(line)) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(line.slice(0, cut))) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The string, cut and ended with an ellipsis if it is wider than `maxWidth`. */
function shorten(winAnsi: string, style: Style, maxWidth: number): string {
  let text = winAnsi;
  if (stringWidth(text, style.font, style.size) <= maxWidth) return text;
  while (text && stringWidth(text.trimEnd() + ELLIPSIS, style.font, style.size) > maxWidth) text = text.slice(0, -1);
  return text.trimEnd() + ELLIPSIS;
}

// ---- Layout ----

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const TEXT_RIGHT = PAGE_WIDTH - MARGIN;
const CONTENT_TOP = PAGE_HEIGHT - MARGIN;
const CONTENT_BOTTOM = MARGIN;
const HEADER_BASELINE = CONTENT_TOP + 22;
const FOOTER_BASELINE = CONTENT_BOTTOM - 24;

interface Style {
  font: FontName;
  size: number;
  leading: number;
  /** Fill gray level, 0 = black. */
  gray: number;
}

const STYLES = {
  title: { font: "Helvetica-Bold", size: 24, leading: 28, gray: 0 },
  dek: { font: "Times-Italic", size: 14, leading: 19, gray: 0.25 },
  byline: { font: "Helvetica-Bold", size: 10, leading: 14, gray: 0 },
  date: { font: "Helvetica", size: 10, leading: 14, gray: 0.35 },
  body: { font: "Times-Roman", size: 11, leading: 15, gray: 0 },
  heading: { font: "Helvetica-Bold", size: 13, leading: 17, gray: 0 },
  quote: { font: "Times-Italic", size: 12.5, leading: 17, gray: 0.2 },
  site: { font: "Helvetica-Bold", size: 8, leading: 10, gray: 0.35 },
  chrome: { font: "Helvetica", size: 8, leading: 10, gray: 0.35 },
} satisfies Record<string, Style>;

interface TextRun extends Style {
  text: string;
  x: number;
  y: number;
}

interface Rule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  gray: number;
}

interface Page {
  texts: TextRun[];
  rules: Rule[];
}

interface TextOptions {
  indent?: number;
  rightIndent?: number;
  /** Extra height that must fit below the first lines, to keep a heading with its text. */
  keepWith?: number;
  /** Drawn in the indent beside the first line, e.g. a bullet. */
  marker?: string;
  /** A vertical bar in the indent, beside every line. */
  bar?: boolean;
}

/** Flows text down the content area of successive pages. */
class Flow {
  readonly pages: Page[] = [];
  private page = this.newPage();
  /** Top of the next line box. */
  private top = CONTENT_TOP;

  /** Vertical space before the next element, dropped at the top of a page. */
  gap(points: number): void {
    if (this.top < CONTENT_TOP) this.top -= points;
  }

  rule(): void {
    this.page.rules.push({ x1: MARGIN, y1: this.top, x2: TEXT_RIGHT, y2: this.top, width: 0.5, gray: 0.6 });
  }

  text(text: string, style: Style, options: TextOptions = {}): void {
    const indent = options.indent ?? 0;
    const lines = wrapText(toWinAnsi(text), style.font, style.size, TEXT_WIDTH - indent - (options.rightIndent ?? 0));
    if (lines.length === 0) return;
    // No lone first line (or heading without its text) at the foot of a page, and no lone
    // last line at the top of the next: those move over with their neighbour.
    this.ensure(Math.min(lines.length, 2) * style.leading + (options.keepWith ?? 0));
    lines.forEach((line, i) => {
      this.ensure((i === lines.length - 2 ? 2 : 1) * style.leading);
      const baseline = this.top - style.size;
      this.page.texts.push({ ...style, text: line, x: MARGIN + indent, y: baseline });
      if (i === 0 && options.marker) this.page.texts.push({ ...style, text: options.marker, x: MARGIN + indent - 12, y: baseline });
      if (options.bar) {
        const x = MARGIN + indent / 3;
        this.page.rules.push({ x1: x, y1: this.top, x2: x, y2: this.top - style.leading, width: 2, gray: 0.75 });
      }
      this.top -= style.leading;
    });
  }

  block(block: Block): void {
    switch (block.type) {
      case "paragraph":
        this.gap(7);
        this.text(block.text, STYLES.body);
        break;
      case "heading":
        this.gap(14);
        this.text(block.text, STYLES.heading, { keepWith: 7 + 2 * STYLES.body.leading });
        break;
      case "quote":
        this.gap(12);
        this.text(block.text, STYLES.quote, { indent: 24, rightIndent: 24, bar: true });
        this.gap(5);
        break;
      case "list":
        this.gap(4);
        for (const item of block.items) {
          this.gap(3);
          this.text(item, STYLES.body, { indent: 18, marker: BULLET });
        }
        break;
    }
  }

  private ensure(height: number): void {
    if (this.top - height < CONTENT_BOTTOM && this.top < CONTENT_TOP) this.page = this.newPage();
  }

  private newPage(): Page {
    const page: Page = { texts: [], rules: [] };
    this.pages.push(page);
    this.top = CONTENT_TOP;
    return page;
  }
}

function joinNames(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function layoutArticle(input: ReprintInput): Page[] {
  const flow = new Flow();
  flow.text(input.title, STYLES.title);
  flow.gap(8);
  flow.text(input.dek, STYLES.dek);
  flow.gap(12);
  if (input.authors.length > 0) flow.text(`By ${joinNames(input.authors)}`, STYLES.byline);
  flow.text(input.published, STYLES.date);
  flow.gap(10);
  flow.rule();
  flow.gap(10);
  for (const block of input.blocks) flow.block(block);
  return flow.pages;
}

/** Running header (site name, title) and footer (page number, licensee, source URL). */
function addPageChrome(page: Page, number: number, total: number, input: ReprintInput): void {
  const run = (text: string, style: Style, x: number, y: number) => page.texts.push({ ...style, text, x, y });
  const width = (text: string, style: Style) => stringWidth(text, style.font, style.size);
  const hairline = (y: number) => page.rules.push({ x1: MARGIN, y1: y, x2: TEXT_RIGHT, y2: y, width: 0.5, gray: 0.6 });

  const site = shorten(toWinAnsi(input.siteName), STYLES.site, TEXT_WIDTH / 2);
  run(site, STYLES.site, MARGIN, HEADER_BASELINE);
  const title = shorten(toWinAnsi(input.title), STYLES.chrome, TEXT_WIDTH - width(site, STYLES.site) - 24);
  run(title, STYLES.chrome, TEXT_RIGHT - width(title, STYLES.chrome), HEADER_BASELINE);
  hairline(HEADER_BASELINE - 7);

  hairline(FOOTER_BASELINE + 12);
  const pageLabel = `Page ${number} of ${total}`;
  const labelWidth = width(pageLabel, STYLES.chrome);
  run(pageLabel, STYLES.chrome, TEXT_RIGHT - labelWidth, FOOTER_BASELINE);
  run(shorten(toWinAnsi(input.licensee), STYLES.chrome, TEXT_WIDTH - labelWidth - 18), STYLES.chrome, MARGIN, FOOTER_BASELINE);
  run(shorten(toWinAnsi(input.sourceUrl), STYLES.chrome, TEXT_WIDTH), STYLES.chrome, MARGIN, FOOTER_BASELINE - STYLES.chrome.leading);
}

// ---- PDF syntax ----

/** A number as PDF writes it: at most two decimals, no exponent. */
function num(n: number): string {
  return String(Number(n.toFixed(2)));
}

function escapePdfString(winAnsi: string): string {
  return winAnsi.replace(/[\\()]/g, "\\$&");
}

/** A text string for the info dictionary: literal if ASCII, else UTF-16BE with a byte order mark. */
function pdfTextString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${escapePdfString(text)})`;
  return `<FEFF${Buffer.from(text, "utf16le").swap16().toString("hex").toUpperCase()}>`;
}

function pdfDate(date: Date): string {
  return `(D:${date.toISOString().replace(/\D/g, "").slice(0, 14)}Z)`;
}

function contentStream(page: Page): string {
  const ops = page.rules.map(
    (r) => `${num(r.gray)} G ${num(r.width)} w ${num(r.x1)} ${num(r.y1)} m ${num(r.x2)} ${num(r.y2)} l S`,
  );
  ops.push("BT");
  let font = "";
  let gray = -1;
  for (const t of page.texts) {
    const fontOp = `/${FONT_RESOURCES[t.font]} ${num(t.size)} Tf`;
    if (fontOp !== font) ops.push((font = fontOp));
    if (t.gray !== gray) ops.push(`${num((gray = t.gray))} g`);
    ops.push(`1 0 0 1 ${num(t.x)} ${num(t.y)} Tm (${escapePdfString(t.text)}) Tj`);
  }
  ops.push("ET");
  return ops.join("\n");
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

function streamObject(data: Buffer): Buffer {
  const compressed = deflateSync(data);
  return Buffer.concat([
    latin1(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`),
    compressed,
    latin1("\nendstream"),
  ]);
}

/** Objects numbered from 1 in order; object 1 is the catalog and object 3 the info dictionary. */
function serialize(objects: Buffer[]): Buffer {
  // The comment line of high-bit bytes tells transfer tools the file is binary.
  const parts = [latin1("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")];
  let offset = parts[0]!.length;
  const offsets = objects.map((body, i) => {
    const object = Buffer.concat([latin1(`${i + 1} 0 obj\n`), body, latin1("\nendobj\n")]);
    parts.push(object);
    offset += object.length;
    return offset - object.length;
  });
  const size = objects.length + 1;
  // Each cross-reference entry must be exactly 20 bytes, hence the space before the newline.
  const xref = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(
    latin1(
      `xref\n0 ${size}\n0000000000 65535 f \n${xref}` +
        `trailer\n<< /Size ${size} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

function writePdf(pages: Page[], input: ReprintInput): Buffer {
  const fonts = Object.keys(FONT_RESOURCES) as FontName[];
  const firstFontId = 4;
  const pageId = (i: number) => firstFontId + fonts.length + 2 * i;
  const fontRefs = fonts.map((font, i) => `/${FONT_RESOURCES[font]} ${firstFontId + i} 0 R`).join(" ");
  const info = [
    `/Title ${pdfTextString(input.title)}`,
    `/Author ${pdfTextString(input.authors.join(", "))}`,
    `/Subject ${pdfTextString(input.dek)}`,
    `/Producer ${pdfTextString(input.siteName)}`,
    `/CreationDate ${pdfDate(input.now ?? new Date())}`,
  ];
  const objects: Buffer[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageId(i)} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    `<< ${info.join(" ")} >>`,
    ...fonts.map((font) => `<< /Type /Font /Subtype /Type1 /BaseFont /${font} /Encoding /WinAnsiEncoding >>`),
  ].map(latin1);
  pages.forEach((page, i) => {
    objects.push(
      latin1(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
          `/Resources << /Font << ${fontRefs} >> >> /Contents ${pageId(i) + 1} 0 R >>`,
      ),
      streamObject(latin1(contentStream(page))),
    );
  });
  return serialize(objects);
}

export function renderReprintPdf(input: ReprintInput): Buffer {
  const pages = layoutArticle(input);
  pages.forEach((page, i) => addPageChrome(page, i + 1, pages.length, input));
  return writePdf(pages, input);
}
