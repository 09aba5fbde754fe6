// The files a toolkit product is delivered as: an Excel workbook (exceljs) and a PowerPoint deck
// (pptxgenjs), both made from content/toolkits/{slug}.json and licensed to the buyer.
// Both libraries load on a toolkit's first download, not at start: exceljs alone takes 1.4 s.
import type ExcelJS from "exceljs";
import type PptxGenJS from "pptxgenjs";
import {
  loadToolkit,
  sheetRow,
  type Cell,
  type NumberFormat,
  type Sheet,
  type Slide,
  type Toolkit,
  type Validation,
} from "./toolkit-content";

/** What of a download the files print besides the toolkit's own content. */
export interface ToolkitSource {
  title: string;
  product: { slug: string; authors: string[] };
}
export interface ToolkitText {
  siteName: string;
  now: Date;
}

// The site's palette (app/styles/theme.css.ts) with the store's navy.
const NAVY = "1F3A5F";
const ACCENT = "A1191F";
const INK = "1A1A1A";
const MUTED = "595959";
const WASH = "F4F1EC";
const RULE = "D6D2CB";
const BAND = "E8EEF5";
const INPUT_INK = "0B4F8A";
const INPUT_FILL = "FFF4D6";
const SERIF = "Georgia";
const SANS = "Arial";
/** Excel's own body font, named on every styled cell so no reader falls back to a serif. */
const BODY = { name: "Calibri", family: 2, size: 11 } as const;

const byline = (authors: string[]) =>
  authors.length > 1 ? `${authors.slice(0, -1).join(", ")} and ${authors[authors.length - 1]}` : (authors[0] ?? "");

// ---------------------------------------------------------------------------------------------
// Workbook

const NUMBER_FORMATS: Record<Exclude<NumberFormat, "text">, string> = {
  // "_)" leaves the width of a bracket after each figure, so figures keep clear of the next
  // column's text, and negative money sits in brackets in line with the positive.
  integer: "#,##0_)",
  number: "#,##0.0_)",
  score: "0.00_)",
  signed: "+0_);-0_);0_)",
  percent: "0.0%_)",
  signedPercent: "+0.0%_);-0.0%_);0.0%_)",
  currency: '"$"#,##0_);[Red]("$"#,##0)',
};
const HEADER_ROW = 3;
const argb = (hex: string) => `FF${hex}`;
const fill = (hex: string): ExcelJS.Fill => ({ type: "pattern", pattern: "solid", fgColor: { argb: argb(hex) } });
/** Text for Excel's page header and footer, where "&" starts a code. */
const headerText = (text: string) => text.replace(/&/g, "&&");

function validationOf(rule: Validation, format: NumberFormat): ExcelJS.DataValidation {
  const shown = (n: number) => (format === "percent" ? `${Math.round(n * 100)}%` : String(n));
  if ("list" in rule)
    return {
      type: "list",
      allowBlank: true,
      formulae: [`"${rule.list.join(",")}"`],
      showErrorMessage: true,
      errorTitle: "Not on the list",
      error: `Choose one of: ${rule.list.join(", ")}.`,
    };
  const [min, max] = "whole" in rule ? rule.whole : rule.decimal;
  return {
    type: "whole" in rule ? "whole" : "decimal",
    operator: "between",
    allowBlank: true,
    formulae: [min, max],
    showErrorMessage: true,
    errorTitle: "Out of range",
    error: `Enter ${"whole" in rule ? "a whole number" : "a value"} from ${shown(min)} to ${shown(max)}.`,
  };
}

/** Lines a wrapped text takes in a column `width` characters wide (prose runs a little narrower than "0"). */
function linesOf(value: string, width: number): number {
  const room = Math.max(1, Math.floor((width - 1) / 0.8));
  let lines = 0;
  for (const paragraph of value.split("\n")) {
    let used = -1;
    lines += 1;
    for (const word of paragraph.split(" ")) {
      if (used >= 0 && used + 1 + word.length > room) {
        lines += 1 + Math.floor(word.length / (room + 1));
        used = word.length % (room + 1);
      } else used += 1 + word.length;
    }
  }
  return lines;
}

/** Excel keeps the height a file gives a row: wrapped text needs the room set here. */
function fitHeight(row: ExcelJS.Row, texts: { value: string; width: number; size: number }[]): void {
  const lines = Math.max(1, ...texts.map((t) => linesOf(t.value, t.width * (11 / t.size))));
  if (lines > 1) row.height = Math.ceil(lines * 14.4 + 4);
}

function cellValue(value: Cell, rowNumber: number): ExcelJS.CellValue {
  if (typeof value === "string" && value.startsWith("=")) return { formula: value.slice(1).replace(/\{row\}/g, String(rowNumber)) };
  return value;
}

function addSheet(workbook: ExcelJS.Workbook, sheet: Sheet, text: ToolkitText & { title: string; licence: string }): ExcelJS.Worksheet {
  const ws = workbook.addWorksheet(sheet.name, {
    properties: sheet.tabColor ? { tabColor: { argb: argb(sheet.tabColor) } } : {},
    views: [{ state: "frozen", xSplit: sheet.freezeColumns, ySplit: HEADER_ROW, activeCell: `A${HEADER_ROW + 1}` }],
    pageSetup: { orientation: "landscape", fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: `${HEADER_ROW}:${HEADER_ROW}` },
    headerFooter: {
      oddHeader: `&L${headerText(text.siteName)}&R${headerText(`${text.title}: ${sheet.name}`)}`,
      oddFooter: `&L${headerText(text.licence)}&RPage &P of &N`,
    },
  });
  ws.columns = sheet.columns.map((c) => ({ width: c.width }));
  const last = sheet.columns.length;

  const title = ws.getRow(1);
  title.getCell(1).value = sheet.title;
  title.getCell(1).font = { name: SERIF, size: 16, bold: true, color: { argb: argb(NAVY) } };
  title.height = 26;
  const description = ws.getRow(2).getCell(1);
  description.value = sheet.description;
  description.font = { ...BODY, italic: true, size: 10, color: { argb: argb(MUTED) } };

  const header = ws.getRow(HEADER_ROW);
  sheet.columns.forEach((c, i) => {
    const h = header.getCell(i + 1);
    h.value = c.header;
    h.font = { ...BODY, bold: true, color: { argb: "FFFFFFFF" } };
    h.fill = fill(NAVY);
    h.alignment = { vertical: "middle", horizontal: c.format === "text" ? "left" : "center", wrapText: true };
  });
  // Bold headers run wider than body text: measured as if a size larger.
  fitHeight(
    header,
    sheet.columns.map((c) => ({ value: c.header, width: c.width, size: 13 })),
  );

  sheet.rows.forEach((r, index) => {
    const rowNumber = sheetRow(index);
    if (!r) return;
    const row = ws.getRow(rowNumber);
    const wrapped: { value: string; width: number; size: number }[] = [];
    for (let i = 0; i < last; i++) {
      const column = sheet.columns[i]!;
      const raw = r.cells[i] ?? null;
      const cell = row.getCell(i + 1);
      const isFormula = typeof raw === "string" && raw.startsWith("=");
      if (raw !== null) cell.value = cellValue(raw, rowNumber);
      const format = r.format ?? column.format;
      if (format !== "text") cell.numFmt = NUMBER_FORMATS[format];
      if (r.style === "note") {
        cell.font = { ...BODY, italic: true, size: 10, color: { argb: argb(MUTED) } };
        continue;
      }
      cell.alignment = { vertical: "top", wrapText: column.wrap };
      if (column.wrap && typeof raw === "string" && !isFormula) wrapped.push({ value: raw, width: column.width, size: 11 });
      if (r.style === "section") {
        cell.font = { ...BODY, bold: true, color: { argb: argb(NAVY) } };
        cell.fill = fill(BAND);
        cell.alignment = { vertical: "middle" };
      } else if (r.style === "total") {
        cell.font = { ...BODY, bold: true };
        cell.border = { top: { style: "thin", color: { argb: argb(INK) } } };
      } else if (raw !== null && !isFormula && (typeof raw === "number" || column.validation)) {
        // An input: the buyer types over it. Formulas keep the default black.
        cell.font = { ...BODY, color: { argb: argb(INPUT_INK) } };
        cell.fill = fill(INPUT_FILL);
        if (column.validation) cell.dataValidation = validationOf(column.validation, format);
      } else if (column.ink) {
        cell.font = { ...BODY, color: { argb: argb(column.ink) } };
      }
    }
    if (r.style !== "note" && r.style !== "section") fitHeight(row, wrapped);
  });
  return ws;
}

/** The workbook of a toolkit: its sheets, with the licence on the first sheet and every printed page. */
export async function workbookFile(toolkit: Toolkit, source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  workbook.title = source.title;
  workbook.subject = toolkit.workbook.subject;
  workbook.creator = text.siteName;
  workbook.lastModifiedBy = text.siteName;
  workbook.company = text.siteName;
  workbook.category = "Toolkit";
  workbook.description = licence;
  workbook.created = text.now;
  workbook.modified = text.now;
  // No results are stored with the formulas: Excel and LibreOffice work them out on opening.
  workbook.calcProperties.fullCalcOnLoad = true;

  const info = { ...text, title: source.title, licence };
  toolkit.workbook.sheets.forEach((sheet, i) => {
    const ws = addSheet(workbook, sheet, info);
    if (i > 0) return;
    const after = sheetRow(sheet.rows.length) + 1;
    const credit = ws.getCell(`A${after}`);
    credit.value = `${source.title}${source.product.authors.length ? ` by ${byline(source.product.authors)}` : ""}. Published by ${text.siteName}.`;
    credit.font = { ...BODY, italic: true, size: 10, color: { argb: argb(MUTED) } };
    const licensed = ws.getCell(`A${after + 1}`);
    licensed.value = `${licence}. For use within the buyer's organization; you may adapt it for internal use.`;
    licensed.font = { ...BODY, italic: true, size: 10, color: { argb: argb(MUTED) } };
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function renderXlsx(source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  return workbookFile(await loadToolkit(source.product.slug), source, text, licence);
}

// ---------------------------------------------------------------------------------------------
// Slides: 16:9, 10 x 5.625 inches.

const W = 10;
const MARGIN = 0.5;
const INNER = W - 2 * MARGIN;
const FOOTER_Y = 5.22;

function footer(site: string, licence: string, onDark: boolean): PptxGenJS.SlideMasterProps["objects"] {
  const colour = onDark ? "D6DFEA" : MUTED;
  return [
    { line: { x: MARGIN, y: FOOTER_Y - 0.06, w: INNER, h: 0, line: { color: onDark ? "3D5A80" : RULE, width: 0.75 } } },
    {
      text: {
        text: site,
        options: {
          x: MARGIN,
          y: FOOTER_Y,
          w: 1.9,
          h: 0.28,
          fontFace: SERIF,
          fontSize: 9,
          bold: true,
          color: onDark ? "FFFFFF" : NAVY,
          margin: 0,
          valign: "middle",
        },
      },
    },
    {
      text: {
        text: licence,
        options: { x: 2.4, y: FOOTER_Y, w: 6.5, h: 0.28, fontFace: SANS, fontSize: 8, color: colour, margin: 0, valign: "middle" },
      },
    },
  ];
}

function slideTitle(slide: PptxGenJS.Slide, title: string): void {
  // One line: a long title steps down a size rather than wrapping into the rule below it.
  const fontSize = title.length > 52 ? 20 : title.length > 40 ? 22 : 26;
  slide.addText(title, {
    x: MARGIN,
    y: 0.28,
    w: INNER,
    h: 0.66,
    fontFace: SERIF,
    fontSize,
    bold: true,
    color: NAVY,
    margin: 0,
    valign: "bottom",
  });
  slide.addShape("rect", { x: MARGIN, y: 1.02, w: 0.8, h: 0.05, fill: { color: ACCENT }, line: { color: ACCENT, width: 0 } });
}

function addContent(pptx: PptxGenJS, s: Exclude<Slide, { layout: "title" }>): PptxGenJS.Slide {
  const slide = pptx.addSlide({ masterName: "CONTENT" });
  slideTitle(slide, s.title);
  let top = 1.25;
  if ((s.layout === "table" || s.layout === "steps") && s.intro) {
    slide.addText(s.intro, { x: MARGIN, y: top, w: INNER, h: 0.36, fontFace: SANS, fontSize: 13, color: MUTED, margin: 0 });
    top += 0.5;
  }
  switch (s.layout) {
    case "bullets":
      slide.addText(
        s.bullets.map((b) => ({ text: b, options: { bullet: { indent: 18 }, breakLine: true } })),
        {
          x: MARGIN,
          y: top + 0.05,
          w: INNER,
          h: FOOTER_Y - top - 0.3,
          fontFace: SANS,
          fontSize: 18,
          color: INK,
          valign: "top",
          paraSpaceAfter: 10,
          margin: 0,
        },
      );
      break;
    case "steps": {
      const gap = 0.2;
      const w = (INNER - gap * (s.steps.length - 1)) / s.steps.length;
      const h = Math.min(2.4, FOOTER_Y - top - 0.35);
      s.steps.forEach((step, i) => {
        const x = MARGIN + i * (w + gap);
        slide.addShape("rect", { x, y: top, w, h, fill: { color: WASH }, line: { color: WASH, width: 0 } });
        slide.addShape("rect", { x, y: top, w, h: 0.08, fill: { color: NAVY }, line: { color: NAVY, width: 0 } });
        slide.addText(
          [
            { text: step.heading, options: { fontFace: SERIF, fontSize: 16, bold: true, color: NAVY, breakLine: true } },
            { text: step.text, options: { fontFace: SANS, fontSize: 13, color: INK } },
          ],
          { x: x + 0.15, y: top + 0.25, w: w - 0.3, h: h - 0.4, valign: "top", paraSpaceAfter: 8, margin: 0 },
        );
      });
      break;
    }
    case "matrix": {
      const gridX = 2.25;
      const gridY = 1.72;
      const gap = 0.1;
      const qw = (W - MARGIN - gridX - gap) / 2;
      const qh = (FOOTER_Y - 0.3 - gridY - gap) / 2;
      const small = { fontFace: SANS, fontSize: 10, color: MUTED, margin: 0 } as const;
      const label = { fontFace: SANS, fontSize: 11, bold: true, color: NAVY, margin: 0 } as const;
      slide.addText(s.xAxis.label.toUpperCase(), {
        ...small,
        x: gridX,
        y: 1.14,
        w: 2 * qw + gap,
        h: 0.24,
        align: "center",
        charSpacing: 1,
      });
      slide.addText(s.xAxis.low, { ...label, x: gridX, y: 1.4, w: qw, h: 0.28, align: "center" });
      slide.addText(s.xAxis.high, { ...label, x: gridX + qw + gap, y: 1.4, w: qw, h: 0.28, align: "center" });
      // The y axis reads upwards, its name turned on its side beside the grid.
      const axisH = 2 * qh + gap;
      slide.addText(s.yAxis.label.toUpperCase(), {
        ...small,
        x: 0.55 - axisH / 2,
        y: gridY + axisH / 2 - 0.12,
        w: axisH,
        h: 0.24,
        align: "center",
        rotate: 270,
        charSpacing: 1,
      });
      slide.addText(s.yAxis.high, { ...label, x: 0.85, y: gridY, w: gridX - 0.95, h: qh, align: "right", valign: "middle" });
      slide.addText(s.yAxis.low, { ...label, x: 0.85, y: gridY + qh + gap, w: gridX - 0.95, h: qh, align: "right", valign: "middle" });
      s.quadrants.forEach((q, i) => {
        const x = gridX + (i % 2) * (qw + gap);
        const y = gridY + Math.floor(i / 2) * (qh + gap);
        slide.addShape("rect", {
          x,
          y,
          w: qw,
          h: qh,
          fill: { color: i === 0 ? NAVY : BAND },
          line: { color: i === 0 ? NAVY : BAND, width: 0 },
        });
        slide.addText(
          [
            { text: q.heading, options: { fontFace: SERIF, fontSize: 15, bold: true, color: i === 0 ? "FFFFFF" : NAVY, breakLine: true } },
            { text: q.text, options: { fontFace: SANS, fontSize: 11, color: i === 0 ? "FFFFFF" : INK } },
          ],
          { x: x + 0.15, y: y + 0.1, w: qw - 0.3, h: qh - 0.2, valign: "top", paraSpaceAfter: 4, margin: 0 },
        );
      });
      break;
    }
    case "table": {
      const total = s.columns.reduce((sum, c) => sum + c.width, 0);
      const colW = s.columns.map((c) => (c.width / total) * INNER);
      // A short table is set larger; figures line up on the right, under a right-aligned header.
      const chars = s.rows.flat().join("").length;
      const cellOptions: PptxGenJS.TableCellProps = {
        fontFace: SANS,
        fontSize: chars < 400 ? 14 : 11,
        color: INK,
        valign: "middle",
        margin: [3, 5, 3, 5],
      };
      const align = s.columns.map((_, j): PptxGenJS.HAlign =>
        j > 0 && s.rows.every((r) => /^[-+$\d.,%m ]+$/.test(r[j]!)) ? "right" : "left",
      );
      const rows: PptxGenJS.TableRow[] = [
        s.columns.map((c, j) => ({
          text: c.header,
          options: { ...cellOptions, bold: true, color: "FFFFFF", fill: { color: NAVY }, align: align[j] },
        })),
        ...s.rows.map((r, i) =>
          r.map((value, j) => ({ text: value, options: { ...cellOptions, fill: { color: i % 2 ? WASH : "FFFFFF" }, align: align[j] } })),
        ),
      ];
      slide.addTable(rows, { x: MARGIN, y: top, w: INNER, colW, border: { type: "solid", pt: 0.5, color: RULE }, autoPage: false });
      break;
    }
  }
  return slide;
}

/** The slide deck of a toolkit, its footer naming the site and the licence on every slide. */
export async function deckFile(toolkit: Toolkit, source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  const { default: Pptx } = await import("pptxgenjs");
  const pptx = new Pptx();
  pptx.layout = "LAYOUT_16x9";
  pptx.title = source.title;
  pptx.subject = toolkit.deck.subject;
  pptx.author = text.siteName;
  pptx.company = text.siteName;
  pptx.revision = "1";
  pptx.theme = { headFontFace: SERIF, bodyFontFace: SANS };
  const number = { y: FOOTER_Y, w: 0.6, h: 0.28, fontFace: SANS, fontSize: 9, align: "right", valign: "middle", margin: 0 } as const;
  pptx.defineSlideMaster({
    title: "TITLE",
    background: { color: NAVY },
    objects: footer(text.siteName, licence, true),
    slideNumber: { ...number, x: W - MARGIN - 0.6, color: "FFFFFF" },
  });
  pptx.defineSlideMaster({
    title: "CONTENT",
    background: { color: "FFFFFF" },
    objects: footer(text.siteName, licence, false),
    slideNumber: { ...number, x: W - MARGIN - 0.6, color: MUTED },
  });

  for (const s of toolkit.deck.slides) {
    if (s.layout === "title") {
      const slide = pptx.addSlide({ masterName: "TITLE" });
      slide.addText(text.siteName.toUpperCase(), {
        x: MARGIN,
        y: 0.45,
        w: INNER,
        h: 0.3,
        fontFace: SANS,
        fontSize: 11,
        color: "D6DFEA",
        charSpacing: 3,
        margin: 0,
      });
      slide.addText(s.title, {
        x: MARGIN,
        y: 1.35,
        w: INNER,
        h: 1.2,
        fontFace: SERIF,
        fontSize: 38,
        bold: true,
        color: "FFFFFF",
        valign: "bottom",
        margin: 0,
      });
      slide.addShape("rect", { x: MARGIN, y: 2.72, w: 1.1, h: 0.06, fill: { color: ACCENT }, line: { color: ACCENT, width: 0 } });
      slide.addText(s.subtitle, {
        x: MARGIN,
        y: 2.95,
        w: INNER,
        h: 0.8,
        fontFace: SANS,
        fontSize: 18,
        color: "FFFFFF",
        valign: "top",
        margin: 0,
      });
      if (source.product.authors.length)
        slide.addText(byline(source.product.authors), {
          x: MARGIN,
          y: 4.1,
          w: INNER,
          h: 0.4,
          fontFace: SERIF,
          fontSize: 14,
          italic: true,
          color: "D6DFEA",
          margin: 0,
        });
      slide.addNotes(s.notes);
    } else {
      addContent(pptx, s).addNotes(s.notes);
    }
  }
  // "STREAM" is the output that honours compression: a Node Buffer, deflated.
  const out = await pptx.write({ outputType: "STREAM", compression: true });
  return Buffer.isBuffer(out) ? out : Buffer.from(out as ArrayBuffer);
}

export async function renderPptx(source: ToolkitSource, text: ToolkitText, licence: string): Promise<Buffer> {
  return deckFile(await loadToolkit(source.product.slug), source, text, licence);
}
