// Article reprints as PDF, laid out with pdfkit in the standard Type 1 fonts every PDF reader
// has, so nothing is embedded. pdfkit is loaded at the first document, not with the server: it
// costs every process that never prints a third of a second of CPU to start.
import type {} from "pdfkit";
import { inlineText, type Block } from "~/server/content/markdown";

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

// US Letter with one-inch margins; the running header and footer sit in the margins.
const MARGIN = 72;
const TEXT_WIDTH = 612 - 2 * MARGIN;
const TEXT_RIGHT = MARGIN + TEXT_WIDTH;
const HEADER_BASELINE = 50;
const FOOTER_BASELINE = 744;

interface Style {
  font: "Helvetica" | "Helvetica-Bold" | "Times-Roman" | "Times-Italic";
  size: number;
  /** Baseline to baseline. */
  leading: number;
  color: string;
}

const STYLES = {
  coverTitle: { font: "Helvetica-Bold", size: 32, leading: 37, color: "#000000" },
  title: { font: "Helvetica-Bold", size: 24, leading: 28, color: "#000000" },
  contents: { font: "Times-Roman", size: 13, leading: 17, color: "#000000" },
  dek: { font: "Times-Italic", size: 14, leading: 19, color: "#404040" },
  byline: { font: "Helvetica-Bold", size: 10, leading: 14, color: "#000000" },
  date: { font: "Helvetica", size: 10, leading: 14, color: "#595959" },
  body: { font: "Times-Roman", size: 11, leading: 15, color: "#000000" },
  heading: { font: "Helvetica-Bold", size: 13, leading: 17, color: "#000000" },
  quote: { font: "Times-Italic", size: 12.5, leading: 17, color: "#333333" },
  site: { font: "Helvetica-Bold", size: 8, leading: 10, color: "#595959" },
  chrome: { font: "Helvetica", size: 8, leading: 10, color: "#595959" },
} satisfies Record<string, Style>;

/**
 * Text the standard fonts can show (their WinAnsi encoding): white space becomes a plain space
 * (a no-break space stays one), invisible format characters go, anything else becomes "?".
 */
function printable(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/[^\S\u00a0]+/g, " ")
    .replace(/[^\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu, "?")
    .trim();
}

function setStyle(doc: PDFKit.PDFDocument, style: Style): void {
  doc.font(style.font).fontSize(style.size).fillColor(style.color);
}

function hairline(doc: PDFKit.PDFDocument, y: number): void {
  doc.moveTo(MARGIN, y).lineTo(TEXT_RIGHT, y).lineWidth(0.5).strokeColor("#999999").stroke();
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

/** Flows the article down the text area of successive pages. */
class Flow {
  constructor(private readonly doc: PDFKit.PDFDocument) {}

  /** Vertical space before the next element, dropped at the top of a page. */
  gap(points: number): void {
    if (this.doc.y > MARGIN) this.doc.y += points;
  }

  rule(): void {
    hairline(this.doc, this.doc.y);
  }

  text(source: string, style: Style, options: TextOptions = {}): void {
    const { doc } = this;
    const text = printable(source);
    if (!text) return;
    const indent = options.indent ?? 0;
    setStyle(doc, style);
    const wrap = { width: TEXT_WIDTH - indent - (options.rightIndent ?? 0), lineGap: style.leading - doc.currentLineHeight(true) };
    const lines = Math.round(doc.heightOfString(text, wrap) / style.leading);

    // No lone first line (or heading without its text) at the foot of a page...
    const firstLines = Math.min(lines, 2) * style.leading + (options.keepWith ?? 0);
    if (doc.y > MARGIN && doc.y + firstLines > doc.page.maxY()) doc.addPage();
    // ...and no lone last line at the top of the next: pdfkit breaks the page when the next
    // line would cross the bottom margin, so raising it by a line sends two lines over.
    const page = doc.page;
    const bottomMargin = page.margins.bottom;
    const fitting = linesFitting(doc, style.leading, doc.y);
    const onThisPage = lines - fitting === 1 ? fitting - 1 : Math.min(lines, fitting);
    if (onThisPage < lines) page.margins.bottom += (fitting - onThisPage) * style.leading;

    const x = MARGIN + indent;
    const top = doc.y;
    const firstPage = pageIndex(doc);
    if (options.marker) doc.text(options.marker, x - 12, top, { lineBreak: false });
    doc.text(text, x, top, wrap);
    page.margins.bottom = bottomMargin;

    if (options.bar) {
      const lastPage = pageIndex(doc);
      const barX = MARGIN + indent / 3;
      const end = doc.y;
      for (let i = firstPage; i <= lastPage; i++) {
        doc.switchToPage(i);
        const from = i === firstPage ? top : MARGIN;
        const to = i === lastPage ? end : from + (i === firstPage ? onThisPage : linesFitting(doc, style.leading, from)) * style.leading;
        doc.moveTo(barX, from).lineTo(barX, to).lineWidth(2).strokeColor("#bfbfbf").stroke();
      }
      doc.y = end;
    }
  }

  block(block: Block): void {
    switch (block.type) {
      case "paragraph":
        this.gap(7);
        this.text(inlineText(block.text), STYLES.body);
        break;
      case "heading":
        this.gap(14);
        this.text(inlineText(block.text), STYLES.heading, { keepWith: 7 + 2 * STYLES.body.leading });
        break;
      case "quote":
        this.gap(12);
        this.text(inlineText(block.text), STYLES.quote, { indent: 24, rightIndent: 24, bar: true });
        this.gap(5);
        break;
      case "list":
        this.gap(4);
        for (const item of block.items) {
          this.gap(3);
          this.text(inlineText(item), STYLES.body, { indent: 18, marker: "•" });
        }
        break;
    }
  }
}

/** How many lines pdfkit sets from `top` before it breaks the page (in the current font). */
function linesFitting(doc: PDFKit.PDFDocument, leading: number, top: number): number {
  return Math.max(0, Math.floor((doc.page.maxY() - top - doc.currentLineHeight(true)) / leading) + 1);
}

/** The newest page, the one the flow writes on. */
function pageIndex(doc: PDFKit.PDFDocument): number {
  const { start, count } = doc.bufferedPageRange();
  return start + count - 1;
}

function joinNames(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** One line of running text on its baseline, cut short with an ellipsis if wider than `width`. */
function chromeLine(
  doc: PDFKit.PDFDocument,
  text: string,
  style: Style,
  at: { x: number; y: number; width: number; align?: "left" | "right" },
): void {
  setStyle(doc, style);
  // A box one line high: pdfkit ends the text there, with the ellipsis, instead of wrapping.
  const height = doc.currentLineHeight(true) * 1.5;
  doc.text(printable(text), at.x, at.y, { width: at.width, height, ellipsis: true, align: at.align, baseline: "alphabetic" });
}

type Chrome = Pick<ReprintInput, "siteName" | "licensee" | "sourceUrl">;

/**
 * Running header (site name, `runningTitle`; none on a title page) and footer (page number,
 * licensee, source URL).
 */
function addPageChrome(doc: PDFKit.PDFDocument, number: number, total: number, input: Chrome, runningTitle: string | null): void {
  if (runningTitle !== null) {
    setStyle(doc, STYLES.site);
    const siteWidth = Math.min(doc.widthOfString(printable(input.siteName)), TEXT_WIDTH / 2);
    chromeLine(doc, input.siteName, STYLES.site, { x: MARGIN, y: HEADER_BASELINE, width: TEXT_WIDTH / 2 });
    const titleWidth = TEXT_WIDTH - siteWidth - 24;
    chromeLine(doc, runningTitle, STYLES.chrome, { x: TEXT_RIGHT - titleWidth, y: HEADER_BASELINE, width: titleWidth, align: "right" });
    hairline(doc, HEADER_BASELINE + 7);
  }

  hairline(doc, FOOTER_BASELINE - 12);
  const pageLabel = `Page ${number} of ${total}`;
  setStyle(doc, STYLES.chrome);
  const labelWidth = doc.widthOfString(pageLabel);
  doc.text(pageLabel, TEXT_RIGHT - labelWidth, FOOTER_BASELINE, { lineBreak: false, baseline: "alphabetic" });
  chromeLine(doc, input.licensee, STYLES.chrome, { x: MARGIN, y: FOOTER_BASELINE, width: TEXT_WIDTH - labelWidth - 18 });
  chromeLine(doc, input.sourceUrl, STYLES.chrome, { x: MARGIN, y: FOOTER_BASELINE + STYLES.chrome.leading, width: TEXT_WIDTH });
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}

async function openDocument(info: {
  title: string;
  author: string;
  subject: string;
  siteName: string;
  now?: Date;
}): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import("pdfkit");
  return new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    pdfVersion: "1.4",
    // Pages stay open until the end, for the "Page N of M" footers and the contents page.
    bufferPages: true,
    info: {
      Title: info.title,
      Author: info.author,
      Subject: info.subject,
      Producer: info.siteName,
      Creator: info.siteName,
      CreationDate: info.now ?? new Date(),
    },
  });
}

/** An article's head (title, dek, byline, date and a rule) and its text. */
function flowArticle(flow: Flow, article: { title: string; dek?: string; authors: string[]; published?: string; blocks: Block[] }): void {
  flow.text(article.title, STYLES.title);
  if (article.dek) {
    flow.gap(8);
    flow.text(article.dek, STYLES.dek);
  }
  flow.gap(12);
  if (article.authors.length > 0) flow.text(`By ${joinNames(article.authors)}`, STYLES.byline);
  if (article.published) flow.text(article.published, STYLES.date);
  flow.gap(10);
  flow.rule();
  flow.gap(10);
  for (const block of article.blocks) flow.block(block);
}

export async function renderReprintPdf(input: ReprintInput): Promise<Buffer> {
  const doc = await openDocument({
    title: input.title,
    author: input.authors.join(", "),
    subject: input.dek,
    siteName: input.siteName,
    now: input.now,
  });
  const pdf = collect(doc);
  flowArticle(new Flow(doc), input);
  const { count } = doc.bufferedPageRange();
  for (let i = 0; i < count; i++) {
    doc.switchToPage(i);
    addPageChrome(doc, i + 1, count, input, input.title);
  }
  doc.end();
  return pdf;
}

/** One part of a book or an issue: a chapter, or an article with its own head. */
export interface PdfPart {
  title: string;
  dek?: string;
  authors: string[];
  /** Already formatted; articles only. */
  published?: string;
  blocks: Block[];
}

export interface CollectionInput extends Chrome {
  /** Above the title on the title page, e.g. "MERIDIAN REVIEW PRESS". */
  imprint: string;
  title: string;
  subtitle: string;
  authors: string[];
  /** Already formatted. */
  published: string;
  parts: PdfPart[];
  now?: Date;
}

/**
 * A book or a magazine issue: a title page, a contents page whose entries link to their parts,
 * then each part from a new page, with a bookmark for each in the reader's outline.
 */
export async function renderCollectionPdf(input: CollectionInput): Promise<Buffer> {
  const doc = await openDocument({
    title: input.title,
    author: input.authors.join(", "),
    subject: input.subtitle,
    siteName: input.siteName,
    now: input.now,
  });
  const pdf = collect(doc);
  const flow = new Flow(doc);

  doc.y = MARGIN + 96;
  flow.text(input.imprint, STYLES.site);
  flow.gap(18);
  flow.text(input.title, STYLES.coverTitle);
  if (input.subtitle) {
    flow.gap(14);
    flow.text(input.subtitle, STYLES.dek);
  }
  flow.gap(36);
  if (input.authors.length > 0) flow.text(joinNames(input.authors), STYLES.heading);
  flow.gap(6);
  flow.text(input.published, STYLES.date);

  doc.addPage();
  const contentsPage = pageIndex(doc);
  flow.text("Contents", STYLES.title);

  // The running title of each page after the title page: the part it belongs to.
  const running = ["", input.title];
  const starts: number[] = [];
  input.parts.forEach((part, i) => {
    doc.addPage();
    starts.push(pageIndex(doc));
    doc.addNamedDestination(`part-${i + 1}`, "XYZ", MARGIN, doc.page.height - MARGIN, null);
    doc.outline.addItem(printable(part.title));
    flowArticle(flow, part);
    while (running.length <= pageIndex(doc)) running.push(part.title);
  });

  doc.switchToPage(contentsPage);
  let y = MARGIN + STYLES.title.leading + 24;
  input.parts.forEach((part, i) => {
    const number = String(starts[i]! + 1);
    setStyle(doc, STYLES.contents);
    const numberWidth = doc.widthOfString(number);
    const titleWidth = TEXT_WIDTH - numberWidth - 24;
    const height = doc.heightOfString(printable(part.title), { width: titleWidth });
    doc.text(printable(part.title), MARGIN, y, { width: titleWidth, goTo: `part-${i + 1}` });
    doc.text(number, TEXT_RIGHT - numberWidth, y, { lineBreak: false });
    let below = y + height;
    if (part.authors.length > 0) {
      setStyle(doc, STYLES.date);
      doc.text(printable(joinNames(part.authors)), MARGIN, below + 2, { width: titleWidth });
      below = doc.y;
    }
    y = below + 14;
  });

  const { count } = doc.bufferedPageRange();
  for (let i = 0; i < count; i++) {
    doc.switchToPage(i);
    addPageChrome(doc, i + 1, count, input, i === 0 ? null : running[i]!);
  }
  doc.end();
  return pdf;
}

export interface InvoiceInput {
  /** "Invoice" (the default), or "Credit note": a refund's, laid out the same way (ADR 086). */
  kind?: "Invoice" | "Credit note";
  /** E.g. "MR-000042". */
  number: string;
  /** Already formatted, e.g. "December 15, 2026". */
  issued: string;
  publisher: { name: string; addressLines: string[]; taxId: string | null };
  /** `address`: where the buyer is billed, e.g. "New York, United States" (null when none was given). */
  billTo: { name: string; email: string; company: string | null; taxId: string | null; address: string | null };
  description: string;
  /** Already formatted, e.g. "November 15, 2026 to December 15, 2026". */
  period: string;
  /** What `period` is; "Service period" when not given. */
  periodLabel?: string;
  /** More lines under the description, e.g. a credit note's refunded items. */
  details?: string[];
  /** Already formatted amounts. */
  amount: string;
  /** The tax line's label with its rate and place, e.g. "Tax (NY 4%)". */
  taxLabel: string;
  tax: string;
  total: string;
  /** E.g. "Paid with Visa ending in 4242". */
  paidWith: string;
  siteUrl: string;
  /** Where the buyer finds their documents; "/my-account" when not given. */
  accountPath?: string;
  now?: Date;
}

/** An invoice for a payment (or a credit note for a refund): the publisher, the buyer, the line, tax and total. */
export async function renderInvoicePdf(input: InvoiceInput): Promise<Buffer> {
  const kind = input.kind ?? "Invoice";
  const credit = kind === "Credit note";
  const doc = await openDocument({
    title: `${kind} ${input.number}`,
    author: input.publisher.name,
    subject: input.description,
    siteName: input.publisher.name,
    now: input.now,
  });
  const done = collect(doc);
  const flow = new Flow(doc);
  flow.text(input.publisher.name, STYLES.title);
  for (const line of input.publisher.addressLines) flow.text(line, STYLES.date);
  if (input.publisher.taxId) flow.text(`Tax id: ${input.publisher.taxId}`, STYLES.date);
  flow.gap(18);
  flow.text(`${kind} ${input.number}`, STYLES.heading);
  flow.text(`Issued ${input.issued}`, STYLES.date);
  flow.gap(12);
  flow.text(credit ? "Credited to" : "Billed to", STYLES.byline);
  for (const line of [
    input.billTo.name,
    input.billTo.company,
    input.billTo.address,
    input.billTo.taxId && `Tax id: ${input.billTo.taxId}`,
    input.billTo.email,
  ])
    if (line) flow.text(line, STYLES.body);
  flow.gap(12);
  flow.rule();
  flow.gap(10);
  flow.text(input.description, STYLES.byline);
  for (const line of input.details ?? []) flow.text(line, STYLES.body);
  flow.text(`${input.periodLabel ?? "Service period"}: ${input.period}`, STYLES.body);
  flow.gap(10);
  flow.rule();
  flow.gap(10);
  const total = credit ? "Total refunded" : "Total paid";
  for (const [label, value] of [
    ["Amount", input.amount],
    [input.taxLabel, input.tax],
    [total, input.total],
  ])
    flow.text(`${label}: ${value}`, label === total ? STYLES.byline : STYLES.body);
  flow.gap(8);
  flow.text(input.paidWith, STYLES.date);
  flow.gap(18);
  flow.text(
    credit
      ? `Your order and its documents: ${input.siteUrl}${input.accountPath ?? "/my-account"}`
      : `Your subscription, invoices and card on file: ${input.siteUrl}${input.accountPath ?? "/my-account"}`,
    STYLES.date,
  );
  doc.end();
  return done;
}
