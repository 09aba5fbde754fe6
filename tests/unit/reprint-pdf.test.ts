import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Block } from "../../server/content/markdown";
import { renderReprintPdf, stringWidth, type FontName, type ReprintInput } from "../../server/reprints/pdf";

// ---- A small PDF reader, just enough to check what the writer produces ----

interface PdfObject {
  dict: string;
  /** Decoded (inflated) stream data, for stream objects. */
  stream?: Buffer;
}

interface ParsedPdf {
  objects: Map<number, PdfObject>;
  trailer: string;
  xrefSize: number;
}

interface TextRun {
  font: string;
  size: number;
  x: number;
  y: number;
  /** As shown: one char per WinAnsi byte. */
  bytes: string;
}

interface ParsedPage {
  dict: string;
  content: string;
  runs: TextRun[];
}

function readPdf(pdf: Buffer): ParsedPdf {
  const text = pdf.toString("latin1");
  expect(text).toMatch(/^%PDF-1\.4\r?\n%[\x80-\xff]{4}\r?\n/);
  const tail = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text);
  if (!tail) throw new Error("no startxref");
  const xrefAt = Number(tail[1]);
  const head = /^xref\r?\n0 (\d+)\r?\n/.exec(text.slice(xrefAt));
  if (!head) throw new Error(`startxref ${xrefAt} does not point at an xref table`);
  const xrefSize = Number(head[1]);
  const objects = new Map<number, PdfObject>();
  let pos = xrefAt + head[0].length;
  for (let n = 0; n < xrefSize; n++, pos += 20) {
    const entry = /^(\d{10}) (\d{5}) ([nf])(?: \n| \r|\r\n)$/.exec(text.slice(pos, pos + 20));
    if (!entry) throw new Error(`bad xref entry ${n}: ${JSON.stringify(text.slice(pos, pos + 20))}`);
    if (entry[3] === "n") objects.set(n, readObject(pdf, text, n, Number(entry[1])));
  }
  const trailer = /^trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(text.slice(pos));
  if (!trailer) throw new Error("no trailer after the xref table");
  return { objects, trailer: trailer[1]!, xrefSize };
}

function readObject(pdf: Buffer, text: string, n: number, offset: number): PdfObject {
  const header = `${n} 0 obj`;
  if (!text.startsWith(header, offset)) {
    throw new Error(`xref offset ${offset} of object ${n} points at ${JSON.stringify(text.slice(offset, offset + 12))}`);
  }
  const start = offset + header.length;
  const endAt = text.indexOf("endobj", start);
  const streamAt = text.indexOf("stream", start);
  if (streamAt < 0 || streamAt > endAt) return { dict: text.slice(start, endAt).trim() };
  const dict = text.slice(start, streamAt).trim();
  const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
  const dataAt = streamAt + (text.startsWith("stream\r\n", streamAt) ? 8 : 7);
  expect(text.slice(dataAt + length), `object ${n}: /Length ${length} ends the data`).toMatch(/^\r?\n?endstream\s+endobj/);
  const data = pdf.subarray(dataAt, dataAt + length);
  return { dict, stream: dict.includes("/FlateDecode") ? inflateSync(data) : data };
}

function ref(dict: string, key: string): number {
  const match = new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(dict);
  if (!match) throw new Error(`no /${key} reference in ${dict}`);
  return Number(match[1]);
}

function object(pdf: ParsedPdf, id: number): PdfObject {
  const found = pdf.objects.get(id);
  if (!found) throw new Error(`object ${id} is not in the xref table`);
  return found;
}

/** The pages in page-tree order, after checking the tree against the /Type /Page objects. */
function readPages(pdf: ParsedPdf): ParsedPage[] {
  const catalog = object(pdf, ref(pdf.trailer, "Root"));
  expect(catalog.dict).toMatch(/\/Type\s*\/Catalog/);
  const treeId = ref(catalog.dict, "Pages");
  const tree = object(pdf, treeId).dict;
  const kids = [...(/\/Kids\s*\[([^\]]*)\]/.exec(tree)?.[1] ?? "").matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  const count = Number(/\/Count (\d+)/.exec(tree)?.[1]);
  const pageObjects = [...pdf.objects.values()].filter((o) => /\/Type\s*\/Page(?![a-z])/.test(o.dict));
  expect(pageObjects).toHaveLength(count);
  expect(kids).toHaveLength(count);
  return kids.map((id) => {
    const { dict } = object(pdf, id);
    expect(dict).toMatch(/\/Type\s*\/Page(?![a-z])/);
    expect(ref(dict, "Parent")).toBe(treeId);
    expect(dict).toMatch(/\/MediaBox\s*\[0 0 612 792\]/);
    const fonts = new Map<string, string>();
    for (const [, name, fontId] of (/\/Font\s*<<([^>]*)>>/.exec(dict)?.[1] ?? "").matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const font = object(pdf, Number(fontId)).dict;
      expect(font).toMatch(/\/Subtype\s*\/Type1/);
      expect(font).toMatch(/\/Encoding\s*\/WinAnsiEncoding/);
      fonts.set(name!, /\/BaseFont\s*\/([\w-]+)/.exec(font)![1]!);
    }
    const content = object(pdf, ref(dict, "Contents")).stream!.toString("latin1");
    return { dict, content, runs: textRuns(content, fonts) };
  });
}

/** The text-showing operations of a content stream, with font and position. */
function textRuns(content: string, fonts: Map<string, string>): TextRun[] {
  const token = /\s*(?:(\()|\/([^\s/[\]()<>]+)|([+-]?(?:\d+\.?\d*|\.\d+))|([A-Za-z'"*]+)|(\S))/y;
  const runs: TextRun[] = [];
  let operands: (string | number)[] = [];
  let font = "";
  let size = 0;
  let x = 0;
  let y = 0;
  let pos = 0;
  while (pos < content.length) {
    token.lastIndex = pos;
    const m = token.exec(content);
    if (!m) break;
    pos = token.lastIndex;
    if (m[1]) {
      const [bytes, end] = readLiteral(content, pos);
      operands.push(bytes);
      pos = end;
    } else if (m[2] !== undefined) operands.push(m[2]);
    else if (m[3] !== undefined) operands.push(Number(m[3]));
    else if (m[4]) {
      const args = operands;
      operands = [];
      switch (m[4]) {
        case "Tf":
          font = fonts.get(String(args[0]))!;
          size = Number(args[1]);
          expect(font, `font resource ${args[0]}`).toBeDefined();
          break;
        case "Tm":
          [x, y] = [Number(args[4]), Number(args[5])];
          break;
        case "Tj":
          runs.push({ font, size, x, y, bytes: String(args[0]) });
          break;
        case "TJ":
        case "Td":
        case "TD":
        case "T*":
        case "'":
        case '"':
          throw new Error(`this reader does not follow ${m[4]}`);
      }
    } else if (m[5]) throw new Error(`unexpected ${m[5]} in content stream`);
  }
  return runs;
}

/** A literal string starting after its "(": the bytes and the position after its ")". */
function readLiteral(s: string, start: number): [string, number] {
  const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
  let out = "";
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") {
      const next = s[++i]!;
      const octal = /^[0-7]{1,3}/.exec(s.slice(i, i + 3));
      if (octal) {
        out += String.fromCharCode(parseInt(octal[0], 8));
        i += octal[0].length - 1;
      } else out += escapes[next] ?? next;
    } else if (c === ")" && depth === 0) return [out, i + 1];
    else {
      if (c === "(") depth++;
      if (c === ")") depth--;
      out += c;
    }
  }
  throw new Error("unterminated string");
}

// Decoded independently of the writer's own table, for readable assertions.
const WIN_ANSI_TO_UNICODE: Record<number, string> = {
  0x85: "…", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x95: "•", 0x96: "–", 0x97: "—", 0xa0: "\u00a0",
};
const decode = (bytes: string) =>
  [...bytes].map((c) => WIN_ANSI_TO_UNICODE[c.charCodeAt(0)] ?? c).join("");

const allText = (pages: ParsedPage[]) => pages.flatMap((p) => p.runs.map((r) => decode(r.bytes))).join("\n");

// Header and footer sit in the margins; the article flows between them.
const isBody = (run: TextRun) => run.y < 720 && run.y > 72;

/** The chosen body lines of all pages joined back into text, undoing the line breaks. */
function bodyText(pages: ParsedPage[], font: FontName, where = (_run: TextRun) => true): string {
  return pages
    .flatMap((p) => p.runs.filter((r) => isBody(r) && r.font === font && r.bytes !== "\x95" && where(r)))
    .map((r) => decode(r.bytes))
    .reduce((text, line) => (!text ? line : /[-–—]$/.test(text) ? text + line : `${text} ${line}`), "");
}

// ---- Fixtures ----

const NOW = new Date("2026-11-23T12:00:00Z");

const WORDS = (
  "margin capital supplier forecast quarterly ledger inventory customer pricing workforce " +
  "governance a of to in the and productivity reconciliation throughput benchmark is " +
  "procurement liquidity scorecard by accountability"
).split(" ");

/** Deterministic filler prose of the given length, opening and closing with the given words. */
function prose(seed: number, words: number, first: string, last: string): string {
  let state = seed;
  const picked = Array.from({ length: words - 2 }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return WORDS[state % WORDS.length]!;
  });
  return `${first} ${picked.join(" ")} ${last}.`;
}

function article(overrides: Partial<ReprintInput> = {}): ReprintInput {
  return {
    title: "The Quiet Economics of Maintenance",
    dek: "Why the best operators treat upkeep as strategy, not overhead.",
    authors: ["Ada Lovelace", "Charles Babbage", "Grace Hopper"],
    published: "June 10, 2025",
    blocks: [
      { type: "paragraph", text: prose(1, 80, "Aardvarks", "opening") },
      { type: "heading", text: "Where the money goes" },
      { type: "list", items: ["Spare parts held too long", prose(2, 40, "Technicians", "waiting")] },
      { type: "quote", text: prose(3, 35, "Maintenance", "compounds") },
      { type: "paragraph", text: prose(4, 60, "Finally", "zephyrs") },
    ],
    sourceUrl: "https://meridianreview.example/articles/quiet-economics-of-maintenance",
    licensee: "Licensed to Ada Lovelace (ada@example.com) on November 23, 2026",
    siteName: "Meridian Review",
    now: NOW,
    ...overrides,
  };
}

function longArticle(): ReprintInput {
  const blocks: Block[] = [];
  for (let i = 0; i < 60; i++) {
    if (i % 12 === 6) blocks.push({ type: "heading", text: `Section ${i / 6} of the argument` });
    blocks.push({ type: "paragraph", text: prose(i + 10, 50 + ((i * 7) % 60), `P${i}start`, `P${i}end`) });
  }
  return article({ blocks });
}

const render = (input: ReprintInput) => readPages(readPdf(renderReprintPdf(input)));

// ---- Tests ----

describe("renderReprintPdf", () => {
  it("writes a well-formed PDF 1.4: xref offsets, stream lengths, trailer, info and fonts", () => {
    const buffer = renderReprintPdf(article());
    const pdf = readPdf(buffer);
    expect(pdf.xrefSize).toBe(pdf.objects.size + 1);
    expect(buffer.toString("latin1").match(/^\d+ 0 obj\b/gm)).toHaveLength(pdf.objects.size);
    expect(pdf.trailer).toMatch(new RegExp(`/Size ${pdf.xrefSize}\\b`));

    const info = object(pdf, ref(pdf.trailer, "Info")).dict;
    expect(info).toContain("/Title (The Quiet Economics of Maintenance)");
    expect(info).toContain("/Author (Ada Lovelace, Charles Babbage, Grace Hopper)");
    expect(info).toContain("/Producer (Meridian Review)");
    expect(info).toContain("/CreationDate (D:20261123120000Z)");

    const baseFonts = [...pdf.objects.values()].flatMap((o) => /\/BaseFont\s*\/([\w-]+)/.exec(o.dict)?.[1] ?? []);
    expect(baseFonts.sort()).toEqual(["Helvetica", "Helvetica-Bold", "Times-Italic", "Times-Roman"]);
    expect(readPages(pdf)).toHaveLength(1);
  });

  it("shows the title, dek, authors, date and the body's first and last words", () => {
    const pages = render(article());
    const text = allText(pages);
    expect(text).toContain("The Quiet Economics of Maintenance");
    expect(text).toContain("By Ada Lovelace, Charles Babbage and Grace Hopper");
    expect(text).toContain("June 10, 2025");
    expect(text).toContain("Why the best operators treat upkeep as strategy");
    expect(text).toMatch(/^Aardvarks /m);
    expect(text).toMatch(/\bzephyrs\.$/m);
    const title = pages[0]!.runs.find((r) => r.bytes.startsWith("The Quiet"))!;
    expect(title.font).toBe("Helvetica-Bold");
  });

  it("renders every block kind: bold larger headings, indented italic quotes, bulleted list items", () => {
    const runs = render(article())[0]!.runs.filter(isBody);
    const paragraph = runs.find((r) => r.bytes.startsWith("Aardvarks"))!;
    expect(paragraph).toMatchObject({ font: "Times-Roman", x: 72 });

    const heading = runs.find((r) => r.bytes === "Where the money goes")!;
    expect(heading.font).toBe("Helvetica-Bold");
    expect(heading.size).toBeGreaterThan(paragraph.size);

    const bullets = runs.filter((r) => r.bytes === "\x95");
    expect(bullets).toHaveLength(2);
    const item = runs.find((r) => r.bytes === "Spare parts held too long")!;
    expect(item.y).toBe(bullets[0]!.y);
    expect(item.x).toBeGreaterThan(bullets[0]!.x);
    expect(runs.find((r) => r.bytes.startsWith("Technicians"))!.y).toBe(bullets[1]!.y);

    // The dek is italic too; the quote comes after the heading.
    const belowHeading = (r: TextRun) => r.y < heading.y;
    const quote = runs.filter((r) => r.font === "Times-Italic" && belowHeading(r));
    expect(quote.length).toBeGreaterThan(1);
    expect(quote[0]!.bytes).toMatch(/^Maintenance /);
    for (const line of quote) expect(line.x).toBeGreaterThan(paragraph.x);
    expect(bodyText(render(article()), "Times-Italic", belowHeading)).toBe(prose(3, 35, "Maintenance", "compounds"));
  });

  it("breaks a long article over pages, each with the running header and a Page N of M footer", () => {
    const input = longArticle();
    const pages = render(input);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    pages.forEach((page, i) => {
      const texts = page.runs.map((r) => decode(r.bytes));
      expect(texts).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(texts).toContain("Meridian Review");
      expect(texts).toContain(input.title);
      expect(texts).toContain(input.licensee);
      expect(texts).toContain(input.sourceUrl);
      for (const run of page.runs.filter(isBody)) expect(run.y).toBeGreaterThanOrEqual(72);
      // No heading or lone first line of a paragraph at the foot of a page, no lone last line at its top.
      const body = page.runs.filter(isBody);
      expect(body.at(-1)!.font).not.toBe("Helvetica-Bold");
      expect(body.at(-1)!.bytes).not.toMatch(/^P\d+start/);
      if (i > 0) expect(body[0]!.bytes).not.toMatch(/P\d+end\.$/);
    });
    const paragraphs = input.blocks.flatMap((b) => (b.type === "paragraph" ? [b.text] : []));
    expect(bodyText(pages, "Times-Roman")).toBe(paragraphs.join(" "));
    expect(allText(pages.slice(-1))).toContain("P59end.");
  });

  it("keeps every line inside the text area, and fills lines close to it", () => {
    const pages = render(longArticle());
    for (const run of pages.flatMap((p) => p.runs)) {
      const width = stringWidth(run.bytes, run.font as FontName, run.size);
      expect(run.x).toBeGreaterThanOrEqual(72 - 0.01);
      expect(run.x + width, decode(run.bytes)).toBeLessThanOrEqual(540 + 0.01);
    }
    const bodyWidths = pages
      .flatMap((p) => p.runs.filter((r) => isBody(r) && r.font === "Times-Roman"))
      .map((r) => stringWidth(r.bytes, "Times-Roman", r.size));
    expect(bodyWidths.filter((w) => w > 468 * 0.9).length).toBeGreaterThan(bodyWidths.length / 2);
  });

  it("measures with the Adobe AFM widths", () => {
    expect(stringWidth("A", "Helvetica", 1000)).toBe(667);
    expect(stringWidth("m", "Helvetica-Bold", 1000)).toBe(889);
    expect(stringWidth("W", "Times-Roman", 1000)).toBe(944);
    expect(stringWidth("\x93\x94", "Times-Roman", 1000)).toBe(888);
    expect(stringWidth("\x97", "Times-Italic", 1000)).toBe(889);
    expect(stringWidth("caf\xe9 ", "Helvetica", 10)).toBeCloseTo((500 + 556 + 278 + 556 + 278) / 100);
  });

  it("splits words too long for a line and shortens a long title in the header", () => {
    const long = "x".repeat(150);
    const title = `${"A Very Long Title About Operations ".repeat(4)}End`;
    const pages = render(article({ title, blocks: [{ type: "paragraph", text: `See ${long} here.` }] }));
    const runs = pages.flatMap((p) => p.runs);
    const pieces = runs.filter((r) => isBody(r) && r.bytes.includes("xxx"));
    expect(pieces.length).toBeGreaterThan(1);
    for (const run of pieces) expect(run.x + stringWidth(run.bytes, "Times-Roman", run.size)).toBeLessThanOrEqual(540.01);
    expect(bodyText(pages, "Times-Roman").replace(/ /g, "")).toBe(`See${long}here.`);
    const header = runs.find((r) => r.y > 720 && r.font === "Helvetica")!;
    expect(header.bytes.endsWith("\x85")).toBe(true);
    expect(header.x + stringWidth(header.bytes, "Helvetica", header.size)).toBeLessThanOrEqual(540.01);
    expect(allText(pages).replace(/\n/g, " ")).toContain(title);
  });

  it("escapes parentheses and backslashes so they survive", () => {
    const text = String.raw`Costs (in $) fell :) then rose \ or (maybe) not \n( ok`;
    const buffer = renderReprintPdf(article({ title: "Margins (and Why) \\ Matter", blocks: [{ type: "paragraph", text }] }));
    const pages = readPages(readPdf(buffer));
    expect(pages[0]!.content).toContain(String.raw`Costs \(in $\) fell :\) then rose \\ or \(maybe\) not \\n\( ok`);
    expect(bodyText(pages, "Times-Roman")).toBe(text);
    expect(allText(pages)).toContain("Margins (and Why) \\ Matter");
    expect(buffer.toString("latin1")).toContain(String.raw`/Title (Margins \(and Why\) \\ Matter)`);
  });

  it("writes typographic characters as their WinAnsi bytes and the rest as ?", () => {
    const text = "“Quoted” and ‘single’ – en — em… • café naïve\u00a0€5 → 漢";
    const pages = render(article({ blocks: [{ type: "paragraph", text }] }));
    const line = pages[0]!.runs.find((r) => r.bytes.includes("Quoted"))!.bytes;
    const bytes = [...Buffer.from(line, "latin1")];
    expect(bytes.slice(0, 8)).toEqual([0x93, ...Buffer.from("Quoted"), 0x94]);
    for (const code of [0x91, 0x92, 0x96, 0x97, 0x85, 0x95, 0xe9, 0xef, 0xa0, 0x80]) expect(bytes).toContain(code);
    expect(line.endsWith("? ?")).toBe(true);
    expect(bodyText(pages, "Times-Roman")).toBe(text.replace("€", "\x80").replace(/[→漢]/g, "?"));
  });

  it("is deterministic apart from the creation date", () => {
    const a = renderReprintPdf(longArticle());
    expect(renderReprintPdf(longArticle()).equals(a)).toBe(true);
    const later = renderReprintPdf({ ...longArticle(), now: new Date("2027-01-02T03:04:05Z") });
    expect(later.equals(a)).toBe(false);
    expect(later.toString("latin1").replace("D:20270102030405Z", "D:20261123120000Z")).toBe(a.toString("latin1"));
  });
});
