import { createRequire } from "node:module";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** One run of text as a PDF reader lays it out: PDF coordinates, y up from the page's foot. */
export interface PdfLine {
  text: string;
  x: number;
  y: number;
  /** Font size in points. */
  size: number;
  /** Advance width in points. */
  width: number;
}

export interface ReadPdf {
  /** Text runs of each page, in the order the page draws them. */
  pages: PdfLine[][];
  /** The document properties a reader shows. */
  title: string;
  author: string;
}

// The metrics of the standard 14 fonts, so text positions come out as a viewer shows them.
const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/** Reads a PDF back with pdf.js, the engine behind Firefox's PDF viewer. */
export async function readPdf(data: Uint8Array): Promise<ReadPdf> {
  const pdf = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise;
  try {
    const pages: PdfLine[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(
        content.items.flatMap((item) =>
          "str" in item && item.str.trim()
            ? [{ text: item.str.trim(), x: item.transform[4], y: item.transform[5], size: item.transform[0], width: item.width }]
            : [],
        ),
      );
    }
    const { info } = (await pdf.getMetadata()) as { info: { Title?: string; Author?: string } };
    return { pages, title: info.Title ?? "", author: info.Author ?? "" };
  } finally {
    await pdf.destroy();
  }
}

/** All the text of the pages, one run a line. */
export const pdfText = (pages: PdfLine[][]) =>
  pages
    .flat()
    .map((line) => line.text)
    .join("\n");
