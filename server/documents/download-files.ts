// The files a store order's digital lines are delivered as, made here from the work's own text
// (a book's chapters, an issue's articles, a case study's sections). PDF codes get a PDF; HTM an
// HTML page; the ebook codes an EPUB; ZIP an archive holding the PDF; a toolkit's XLS an Excel
// workbook and its PPT a PowerPoint deck (xlsx.ts, pptx.ts).
import { blocksToHtml, parseBody, type Block } from "~/server/content/markdown";
import { imprintOf } from "~/server/images/art";
import { renderCollectionPdf, renderReprintPdf, type PdfPart } from "./pdf";
import { isCollection } from "~/shared/product-types";
import { productPath } from "~/shared/urls";
import { escapeHtml } from "~/server/text/escape";
import type { DownloadSource } from "~/server/store/downloads";
import { renderPptx } from "./pptx";
import { renderXlsx } from "./xlsx";
import { zip } from "./zip";

export interface FileText {
  /** Already formatted, e.g. "June 10, 2025". */
  published: string;
  /** Formats a held article's date as `published` is. */
  formatDate: (iso: string) => string;
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

/** A work's parts as its download lays them out: chapters, or articles with their own heads. */
interface Work {
  /** Books and magazine issues: a title page, a contents page and a part per chapter or article. */
  collection: boolean;
  parts: PdfPart[];
}

/**
 * What an item line's file holds: a book's chapters or an issue's articles when the store has
 * them; a case study's or reprint's sections (or its one article) as one document; else the
 * catalogue's description.
 */
function workOf(source: DownloadSource, text: FileText): Work {
  const collection = isCollection(source.product.productType);
  const articles: PdfPart[] = source.articles.map((a) => ({
    title: a.title,
    dek: a.dek,
    authors: a.authors,
    published: text.formatDate(a.published),
    blocks: parseBody(a.body),
  }));
  if (collection && (articles.length > 0 || source.sections.length > 0)) {
    return {
      collection,
      parts: [...source.sections.map((s) => ({ title: s.title, authors: [], blocks: parseBody(s.body) })), ...articles],
    };
  }
  const head = { title: source.title, dek: source.product.summary, authors: source.product.authors, published: text.published };
  if (articles.length === 1) return { collection: false, parts: articles };
  if (source.sections.length > 0) {
    const blocks = source.sections.flatMap((s): Block[] => [{ type: "heading", text: s.title }, ...parseBody(s.body)]);
    return { collection: false, parts: [{ ...head, blocks }] };
  }
  return { collection: false, parts: [{ ...head, blocks: parseBody(source.product.description) }] };
}

/** "Main title: subtitle", as the covers split it. */
function splitTitle(title: string): { title: string; subtitle: string } {
  const [main = title, ...rest] = title.split(": ");
  return { title: main, subtitle: rest.join(": ") };
}

function pdfFile(source: DownloadSource, text: FileText): Promise<Buffer> {
  const chrome = {
    sourceUrl: text.siteUrl + productPath({ slug: source.product.slug, availabilityId: source.product.availabilityId }),
    licensee: licensee(source, text),
    siteName: text.siteName,
    now: text.now,
  };
  if (source.kind === "perm") {
    return renderReprintPdf({
      ...chrome,
      title: `Copyright permission: ${source.title}`,
      dek: `Licence for ${source.quantity} ${source.quantity === 1 ? "copy" : "copies"}`,
      authors: source.product.authors,
      published: text.published,
      blocks: licenceBlocks(source, text),
    });
  }
  const work = workOf(source, text);
  if (work.collection) {
    return renderCollectionPdf({
      ...chrome,
      ...splitTitle(source.title),
      imprint: imprintOf(source.product.productType),
      authors: source.product.authors,
      published: text.published,
      parts: work.parts,
    });
  }
  const [part] = work.parts;
  return renderReprintPdf({ ...chrome, ...part!, dek: part!.dek ?? "", published: part!.published ?? text.published });
}

function partHtml(part: PdfPart, headingLevel: 1 | 2): string {
  const h = `h${headingLevel}`;
  const dek = part.dek ? `<p><em>${escapeHtml(part.dek)}</em></p>` : "";
  const byline = part.authors.length ? `<p>By ${escapeHtml(part.authors.join(", "))}</p>` : "";
  const date = part.published ? `<p>${escapeHtml(part.published)}</p>` : "";
  return `<${h}>${escapeHtml(part.title)}</${h}>${dek}${byline}${date}` + blocksToHtml(part.blocks, { quoteClass: "quote" });
}

function licenceFooter(source: DownloadSource, text: FileText): string {
  return `<footer><p>${escapeHtml(licensee(source, text))}. ${escapeHtml(text.siteName)}</p></footer>`;
}

/** The whole work as one HTML body: a collection's title and contents, then every part. */
function bodyHtml(source: DownloadSource, text: FileText): string {
  const work = workOf(source, text);
  if (!work.collection) return partHtml(work.parts[0]!, 1) + licenceFooter(source, text);
  const authors = source.product.authors.length ? `<p>${escapeHtml(source.product.authors.join(", "))}</p>` : "";
  const contents = work.parts.map((p, i) => `<li><a href="#part-${i + 1}">${escapeHtml(p.title)}</a></li>`).join("");
  const parts = work.parts.map((p, i) => `<section id="part-${i + 1}">${partHtml(p, 2)}</section>`).join("");
  return (
    `<h1>${escapeHtml(source.title)}</h1>${authors}<p>${escapeHtml(text.published)}</p>` +
    `<nav><h2>Contents</h2><ol>${contents}</ol></nav>${parts}${licenceFooter(source, text)}`
  );
}

function htmlFile(source: DownloadSource, text: FileText): Buffer {
  return Buffer.from(
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(source.title)}</title>` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>${bodyHtml(source, text)}</main></body></html>\n`,
  );
}

/**
 * An EPUB 3 book, as the OCF container rules require: a title page, then a chapter file per part
 * (one for a work that is not a collection), each listed in the navigation document.
 */
function epubFile(source: DownloadSource, text: FileText): Buffer {
  const title = escapeHtml(source.title);
  const identifier = `urn:${text.siteUrl.replace(/^https?:\/\//, "")}:order:${source.orderId}:${source.position}`;
  const modified = `${text.now.toISOString().slice(0, 19)}Z`;
  const creators = source.product.authors.map((a) => `<dc:creator>${escapeHtml(a)}</dc:creator>`).join("");
  const xhtml = (head: string, body: string) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en" lang="en"><head><meta charset="utf-8"/><title>${head}</title></head><body>${body}</body></html>\n`;
  const work = workOf(source, text);
  const authors = source.product.authors.length ? `<p>${escapeHtml(source.product.authors.join(", "))}</p>` : "";
  // The chapters are XHTML: blocksToHtml's elements are all closed, and escapeHtml leaves no bare "&".
  const chapters: { id: string; title: string; body: string }[] = [
    {
      id: "title",
      title: source.title,
      body: `<h1>${title}</h1>${authors}<p>${escapeHtml(text.published)}</p>${licenceFooter(source, text)}`,
    },
    ...work.parts.map((part, i) => ({ id: `part-${i + 1}`, title: part.title, body: partHtml(part, 1) })),
  ];
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
        `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
        chapters.map((c) => `<item id="${c.id}" href="${c.id}.xhtml" media-type="application/xhtml+xml"/>`).join("") +
        `</manifest><spine>${chapters.map((c) => `<itemref idref="${c.id}"/>`).join("")}</spine></package>\n`,
    ],
    [
      "OEBPS/nav.xhtml",
      xhtml(
        title,
        `<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>${chapters
          .map((c) => `<li><a href="${c.id}.xhtml">${escapeHtml(c.title)}</a></li>`)
          .join("")}</ol></nav>`,
      ),
    ],
    ...chapters.map((c): [string, string] => [`OEBPS/${c.id}.xhtml`, xhtml(escapeHtml(c.title), c.body)]),
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
    case "xlsx":
      return { body: await renderXlsx(source, text, licensee(source, text)), contentType: file.contentType, filename };
    case "pptx":
      return { body: await renderPptx(source, text, licensee(source, text)), contentType: file.contentType, filename };
  }
}
