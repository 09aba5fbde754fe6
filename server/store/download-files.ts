// The files a store order's digital lines are delivered as, made here from the catalogue's own
// text. PDF codes (and the spreadsheet and slide codes, which we have no writer for) get a PDF,
// named .pdf; HTM an HTML page; the ebook codes an EPUB; ZIP an archive holding the PDF.
import { blocksToHtml, parseBody, type Block } from "../content/markdown";
import { renderReprintPdf } from "../reprints/pdf";
import { productPath } from "../../shared/urls";
import { escapeHtml } from "../text/escape";
import type { DownloadSource } from "./downloads";
import { zip } from "./zip";

export interface FileText {
  /** Already formatted, e.g. "June 10, 2025". */
  published: string;
  paidOn: string;
  siteUrl: string;
  siteName: string;
  now: Date;
}

export interface DownloadFile {
  body: Buffer;
  contentType: string;
  /** Letters, digits, dots and hyphens only: safe in a Content-Disposition header. */
  filename: string;
}

const safeName = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80) || "download";

function licensee(source: DownloadSource, text: FileText): string {
  return `Licensed to ${source.buyerEmail}, order ${source.orderNumber}, ${text.paidOn}`;
}

function licenceBlocks(source: DownloadSource, text: FileText): Block[] {
  const copies = `${source.quantity} ${source.quantity === 1 ? "copy" : "copies"}`;
  return [
    { type: "heading", text: "Permission granted" },
    {
      type: "paragraph",
      text: `${text.siteName} grants the buyer named below permission to reproduce ${copies} of "${source.title}" (${source.format}), in print or electronic form, for distribution within their organization.`,
    },
    {
      type: "list",
      items: [`Buyer: ${source.buyerEmail}`, `Order: ${source.orderNumber}, paid ${text.paidOn}`, `Copies: ${source.quantity}`],
    },
    {
      type: "paragraph",
      text: "Each copy must carry the original copyright notice. Copies may not be sold, and the work may not be changed. Further copies need a further permission.",
    },
  ];
}

function pdfFile(source: DownloadSource, text: FileText): Promise<Buffer> {
  const perm = source.kind === "perm";
  return renderReprintPdf({
    title: perm ? `Copyright permission: ${source.title}` : source.title,
    dek: perm ? `Licence for ${source.quantity} ${source.quantity === 1 ? "copy" : "copies"}` : source.product.summary,
    authors: source.product.authors,
    published: text.published,
    blocks: perm ? licenceBlocks(source, text) : parseBody(source.product.description),
    sourceUrl: text.siteUrl + productPath({ slug: source.product.slug, availabilityId: source.product.availabilityId }),
    licensee: licensee(source, text),
    siteName: text.siteName,
    now: text.now,
  });
}

/** The body of an HTML page or an EPUB chapter: the product's own text, escaped. */
function bodyHtml(source: DownloadSource, text: FileText): string {
  const authors = source.product.authors.length ? `<p>${escapeHtml(source.product.authors.join(", "))}</p>` : "";
  return (
    `<h1>${escapeHtml(source.title)}</h1>${authors}<p>${escapeHtml(text.published)}</p>` +
    `<p><em>${escapeHtml(source.product.summary)}</em></p>` +
    blocksToHtml(parseBody(source.product.description), { quoteClass: "quote" }) +
    `<footer><p>${escapeHtml(licensee(source, text))}. ${escapeHtml(text.siteName)}</p></footer>`
  );
}

function htmlFile(source: DownloadSource, text: FileText): Buffer {
  return Buffer.from(
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(source.title)}</title>` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>${bodyHtml(source, text)}</main></body></html>\n`,
  );
}

/** An EPUB 3 book with one chapter, as the OCF container rules require. */
function epubFile(source: DownloadSource, text: FileText): Buffer {
  const title = escapeHtml(source.title);
  const identifier = `urn:${text.siteUrl.replace(/^https?:\/\//, "")}:order:${source.orderId}:${source.position}`;
  const modified = `${text.now.toISOString().slice(0, 19)}Z`;
  const creators = source.product.authors.map((a) => `<dc:creator>${escapeHtml(a)}</dc:creator>`).join("");
  const xhtml = (head: string, body: string) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en"><head><meta charset="utf-8"/><title>${head}</title></head><body>${body}</body></html>\n`;
  const files: [string, string][] = [
    [
      "META-INF/container.xml",
      `<?xml version="1.0" encoding="utf-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n`,
    ],
    [
      "OEBPS/content.opf",
      `<?xml version="1.0" encoding="utf-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="en">` +
        `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">${escapeHtml(identifier)}</dc:identifier><dc:title>${title}</dc:title>${creators}` +
        `<dc:language>en</dc:language><dc:publisher>${escapeHtml(text.siteName)}</dc:publisher><meta property="dcterms:modified">${modified}</meta></metadata>` +
        `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="text" href="text.xhtml" media-type="application/xhtml+xml"/></manifest>` +
        `<spine><itemref idref="text"/></spine></package>\n`,
    ],
    [
      "OEBPS/nav.xhtml",
      xhtml(title, `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol><li><a href="text.xhtml">${title}</a></li></ol></nav>`),
    ],
    // The chapter is XHTML: blocksToHtml's elements are all closed, and escapeHtml leaves no bare "&".
    ["OEBPS/text.xhtml", xhtml(title, bodyHtml(source, text))],
  ];
  return zip([
    { name: "mimetype", data: Buffer.from("application/epub+zip") },
    ...files.map(([name, data]) => ({ name, data: Buffer.from(data) })),
  ]);
}

export async function renderDownloadFile(source: DownloadSource, text: FileText): Promise<DownloadFile> {
  const base = source.kind === "perm" ? `${safeName(source.product.slug)}-permissions-licence` : safeName(source.product.slug);
  const file = source.file;
  const filename = `${base}.${file.extension}`;
  switch (file.kind) {
    case "html":
      return { body: htmlFile(source, text), contentType: file.contentType, filename };
    case "epub":
      return { body: epubFile(source, text), contentType: file.contentType, filename };
    case "zip":
      return { body: zip([{ name: `${base}.pdf`, data: await pdfFile(source, text) }]), contentType: file.contentType, filename };
    case "pdf":
      return { body: await pdfFile(source, text), contentType: file.contentType, filename };
  }
}
