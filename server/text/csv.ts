// CSV as spreadsheets read it (RFC 4180): fields quoted when they hold a comma, quote or line
// break, quotes doubled, lines ended by CRLF. A cell a spreadsheet would run as a formula (one
// starting with =, +, -, @, or a tab or carriage return) is prefixed with an apostrophe, so an
// exported name or address can never run as one.

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvDocument = (rows: (string | number | null)[][]) => rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
