import { describe, expect, it } from "vitest";
import type { Block } from "~/server/content/markdown";
import { renderReprintPdf, type ReprintInput } from "~/server/documents/pdf";
import { pdfText, readPdf, type PdfLine } from "~/tests/helpers/pdf-reader";

// US Letter with one-inch margins, in PDF coordinates (y up from the foot of the page).
const TEXT_LEFT = 72;
const TEXT_RIGHT = 540;
const BODY_SIZE = 11;

// Header and footer sit in the margins; the article flows between them.
const isBody = (line: PdfLine) => line.y < 720 && line.y > 72;

/** The chosen body lines of all pages joined back into text, undoing the line breaks. */
function bodyText(pages: PdfLine[][], where: (line: PdfLine) => boolean): string {
  return pages
    .flatMap((page) => page.filter((line) => isBody(line) && line.text !== "•" && where(line)))
    .map((line) => line.text)
    .reduce((text, line) => (!text ? line : /[-–—]$/.test(text) ? text + line : `${text} ${line}`), "");
}

const isBodySize = (line: PdfLine) => line.size === BODY_SIZE;

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

const render = async (input: ReprintInput) => readPdf(await renderReprintPdf(input));

// ---- Tests ----

describe("renderReprintPdf", () => {
  it("gives a one-page reprint its title, dek, authors, date and body, and names title and authors in the document properties", async () => {
    const pdf = await render(article());
    expect(pdf.pages).toHaveLength(1);
    expect(pdf.title).toBe("The Quiet Economics of Maintenance");
    expect(pdf.author).toBe("Ada Lovelace, Charles Babbage, Grace Hopper");

    const text = pdfText(pdf.pages);
    expect(text).toContain("The Quiet Economics of Maintenance");
    expect(text).toContain("By Ada Lovelace, Charles Babbage and Grace Hopper");
    expect(text).toContain("June 10, 2025");
    expect(text).toContain("Why the best operators treat upkeep as strategy");
    expect(text).toMatch(/^Aardvarks /m);
    expect(text).toMatch(/\bzephyrs\.$/m);
    const title = pdf.pages[0]!.find((line) => line.text.startsWith("The Quiet"))!;
    expect(title.size).toBeGreaterThan(2 * BODY_SIZE);
    expect(title.y).toBeGreaterThan(pdf.pages[0]!.filter(isBody).find((line) => line.text.startsWith("Aardvarks"))!.y);
  });

  it("renders every block kind: larger headings, indented quotes, bulleted list items", async () => {
    const pdf = await render(article());
    const lines = pdf.pages[0]!.filter(isBody);
    const paragraph = lines.find((line) => line.text.startsWith("Aardvarks"))!;
    expect(paragraph).toMatchObject({ x: TEXT_LEFT, size: BODY_SIZE });

    const heading = lines.find((line) => line.text === "Where the money goes")!;
    expect(heading.size).toBeGreaterThan(paragraph.size);

    const bullets = lines.filter((line) => line.text === "•");
    expect(bullets).toHaveLength(2);
    const item = lines.find((line) => line.text === "Spare parts held too long")!;
    expect(item.y).toBe(bullets[0]!.y);
    expect(item.x).toBeGreaterThan(bullets[0]!.x);
    expect(lines.find((line) => line.text.startsWith("Technicians"))!.y).toBe(bullets[1]!.y);

    const quote = lines.filter((line) => line.y < heading.y && !isBodySize(line) && line.text !== "•");
    expect(quote.length).toBeGreaterThan(1);
    expect(quote[0]!.text).toMatch(/^Maintenance /);
    for (const line of quote) expect(line.x).toBeGreaterThan(paragraph.x);
    expect(bodyText(pdf.pages, (line) => quote.includes(line))).toBe(prose(3, 35, "Maintenance", "compounds"));
  });

  it("breaks a long article over pages, each with the running header and a Page N of M footer", async () => {
    const input = longArticle();
    const { pages } = await render(input);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    pages.forEach((page, i) => {
      const texts = page.map((line) => line.text);
      expect(texts).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(texts).toContain("Meridian Review");
      expect(texts).toContain(input.title);
      expect(texts).toContain(input.licensee);
      expect(texts).toContain(input.sourceUrl);
      // No heading or lone first line of a paragraph at the foot of a page, no lone last line at its top.
      const body = page.filter(isBody).sort((a, b) => b.y - a.y);
      expect(body.at(-1)!.size).toBe(BODY_SIZE);
      expect(body.at(-1)!.text).not.toMatch(/^P\d+start/);
      if (i > 0) expect(body[0]!.text).not.toMatch(/P\d+end\.$/);
    });
    const paragraphs = input.blocks.flatMap((block) => (block.type === "paragraph" ? [block.text] : []));
    expect(bodyText(pages, isBodySize)).toBe(paragraphs.join(" "));
    expect(pdfText(pages.slice(-1))).toContain("P59end.");
  });

  it("keeps every line inside the text area, and fills lines close to it", async () => {
    const { pages } = await render(longArticle());
    for (const line of pages.flat()) {
      expect(line.x).toBeGreaterThanOrEqual(TEXT_LEFT - 0.01);
      expect(line.x + line.width, line.text).toBeLessThanOrEqual(TEXT_RIGHT + 0.01);
    }
    const bodyWidths = pages.flatMap((page) => page.filter((line) => isBody(line) && isBodySize(line))).map((line) => line.width);
    expect(bodyWidths.filter((width) => width > (TEXT_RIGHT - TEXT_LEFT) * 0.9).length).toBeGreaterThan(bodyWidths.length / 2);
  });

  it("splits words too long for a line and shortens a long title in the header", async () => {
    const long = "x".repeat(150);
    const title = `${"A Very Long Title About Operations ".repeat(4)}End`;
    const { pages } = await render(article({ title, blocks: [{ type: "paragraph", text: `See ${long} here.` }] }));
    const pieces = pages.flat().filter((line) => isBody(line) && line.text.includes("xxx"));
    expect(pieces.length).toBeGreaterThan(1);
    for (const line of pieces) expect(line.x + line.width).toBeLessThanOrEqual(TEXT_RIGHT + 0.01);
    expect(bodyText(pages, isBodySize).replace(/ /g, "")).toBe(`See${long}here.`);
    const header = pages[0]!.find((line) => line.y > 720 && line.x > TEXT_LEFT)!;
    expect(header.text.endsWith("…")).toBe(true);
    expect(header.x + header.width).toBeLessThanOrEqual(TEXT_RIGHT + 0.01);
    expect(pdfText(pages).replace(/\n/g, " ")).toContain(title);
  });

  it("shows parentheses and backslashes as written", async () => {
    const text = String.raw`Costs (in $) fell :) then rose \ or (maybe) not \n( ok`;
    const pdf = await render(article({ title: "Margins (and Why) \\ Matter", blocks: [{ type: "paragraph", text }] }));
    expect(bodyText(pdf.pages, isBodySize)).toBe(text);
    expect(pdfText(pdf.pages)).toContain("Margins (and Why) \\ Matter");
    expect(pdf.title).toBe("Margins (and Why) \\ Matter");
  });

  it("shows typographic characters the standard fonts have, and ? for the rest", async () => {
    const text = "“Quoted” and ‘single’ – en — em… • café naïve\u00a0€5 → 漢";
    const { pages } = await render(article({ blocks: [{ type: "paragraph", text }] }));
    // The no-break space reads back as a plain space.
    expect(bodyText(pages, isBodySize)).toBe(text.replace("\u00a0", " ").replace(/[→漢]/g, "?"));
  });

  it("is the same file for the same reprint and creation date", async () => {
    const a = await renderReprintPdf(longArticle());
    expect((await renderReprintPdf(longArticle())).equals(a)).toBe(true);
    expect((await renderReprintPdf({ ...longArticle(), now: new Date("2027-01-02T03:04:05Z") })).equals(a)).toBe(false);
  });
});
