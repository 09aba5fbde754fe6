// What each digital line is delivered as: the order page names the format, the download serves the file.

export type FileFormat = { kind: "pdf" | "html" | "epub" | "zip" | "xlsx" | "pptx"; label: string; extension: string; contentType: string };

const PDF: FileFormat = { kind: "pdf", label: "PDF", extension: "pdf", contentType: "application/pdf" };
const FORMATS: Record<string, FileFormat> = {
  HTM: { kind: "html", label: "HTML", extension: "html", contentType: "text/html; charset=utf-8" },
  KND: { kind: "epub", label: "EPUB", extension: "epub", contentType: "application/epub+zip" },
  EPB: { kind: "epub", label: "EPUB", extension: "epub", contentType: "application/epub+zip" },
  ZIP: { kind: "zip", label: "ZIP", extension: "zip", contentType: "application/zip" },
  // A toolkit's workbook and slides (xlsx.ts, pptx.ts).
  XLS: {
    kind: "xlsx",
    label: "Excel workbook",
    extension: "xlsx",
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  },
  PPT: {
    kind: "pptx",
    label: "PowerPoint",
    extension: "pptx",
    contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  },
};

/** The file a line is delivered as; a permissions line is its licence, a PDF. */
export function fileFormatOf(kind: "item" | "perm", code: string): FileFormat {
  return kind === "perm" ? PDF : (FORMATS[code] ?? PDF);
}
