// A toolkit product's Excel workbook (exceljs), made from content/toolkits/{slug}.json and
// licensed to the buyer. exceljs loads on a toolkit's first download, not at start: it takes 1.4 s.
import type ExcelJS from "exceljs";
import { loadToolkit, sheetRow, type Cell, type NumberFormat, type Sheet, type Toolkit, type Validation } from "./toolkit-content";
import { BAND, byline, INK, INPUT_FILL, INPUT_INK, MUTED, NAVY, SERIF, type ToolkitSource, type ToolkitText } from "./toolkit-theme";

/** Excel's own body font, named on every styled cell so no reader falls back to a serif. */
const BODY = { name: "Calibri", family: 2, size: 11 } as const;

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
