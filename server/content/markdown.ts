// The small Markdown subset used by article bodies, parsed to plain data so the
// server can split, count and index it without knowing how it is displayed. The subset has no
// HTML: every character of the source is text, except `[words](target)` links to the targets
// linkTarget allows (content/README.md states the rules).
import { escapeHtml } from "~/server/text/escape";

export type Block =
  | { type: "paragraph"; text: string }
  | { type: "heading"; text: string }
  | { type: "list"; items: string[] }
  | { type: "quote"; text: string };

export function parseBody(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of markdown.replace(/\r\n/g, "\n").split(/\n\s*\n/)) {
    const lines = chunk
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    const first = lines[0]!;
    if (first.startsWith("## ")) {
      blocks.push({ type: "heading", text: first.slice(3).trim() });
      if (lines.length > 1) blocks.push({ type: "paragraph", text: lines.slice(1).join(" ") });
    } else if (lines.every((l) => l.startsWith("- "))) {
      blocks.push({ type: "list", items: lines.map((l) => l.slice(2).trim()) });
    } else if (lines.every((l) => l.startsWith(">"))) {
      blocks.push({ type: "quote", text: lines.map((l) => l.replace(/^>\s?/, "")).join(" ") });
    } else {
      blocks.push({ type: "paragraph", text: lines.join(" ") });
    }
  }
  return blocks;
}

/** A block's words as a reader sees them: a link's words without its target. */
export function blockText(block: Block): string {
  return block.type === "list" ? block.items.map(inlineText).join(" ") : inlineText(block.text);
}

/**
 * `[words](target)`: words without brackets or line breaks, a target without spaces or
 * parentheses (so no title). An image's `![alt](src)` is no link: the subset has no images.
 */
const LINK = /(?<!!)\[([^[\]\n]+)\]\(([^\s()]+)\)/g;

/** Any address a link cannot be made from, even relative to another: used to tell a path from a host. */
const NOWHERE = "http://nowhere.invalid";

/**
 * The one rule for where a link in the source may lead, as the href to write, or null when it
 * may not be a link: an http(s) address with a host and no credentials, a path on this site
 * (starting with one "/", and neither it nor what it resolves to starting with "//" or "/\\",
 * which browsers read as another host) or a "#" fragment. The address is checked as a browser's URL parser reads it (which drops tabs and
 * line breaks and folds case: "java\tscript:" and "JaVaScRiPt:" are javascript:) and written
 * back as that parser serialises it, so the href is the address that was checked. Every other
 * scheme (javascript:, vbscript:, data:, mailto:...) and anything else is no link.
 */
export function linkTarget(source: string): string | null {
  if (!/^(https?:|\/|#)/i.test(source) || !URL.canParse(source, NOWHERE)) return null;
  const url = new URL(source, NOWHERE);
  if (/^https?:/i.test(source)) {
    const web = (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    return web && !url.username && !url.password ? url.href : null;
  }
  if (source.startsWith("#")) return url.hash || "#";
  // "/..//evil.example" resolves to the path "//evil.example", which a browser reads as a host.
  const onSite = url.origin === NOWHERE && !url.pathname.startsWith("//");
  return onSite ? url.pathname + url.search + url.hash : null;
}

/** Inline source as text: a link gives its words; anything that is no link stays as written. */
export function inlineText(source: string): string {
  return source.replace(LINK, (link, words: string, target: string) => (linkTarget(target) === null ? link : words));
}

/** A link's target, made absolute on `origin` when it is a path on the site (mail is read away from the site). */
function linkHref(source: string, origin: string | undefined): string | null {
  const href = linkTarget(source);
  return href !== null && origin !== undefined && href.startsWith("/") ? `${origin}${href}` : href;
}

/**
 * Inline source as HTML: every text escaped, and `<a href>` for each link linkTarget allows
 * (a path made absolute on `origin` when one is given).
 */
export function inlineHtml(source: string, origin?: string): string {
  let html = "";
  let from = 0;
  for (const match of source.matchAll(LINK)) {
    const href = linkHref(match[2]!, origin);
    if (href === null) continue;
    html += `${escapeHtml(source.slice(from, match.index))}<a href="${escapeHtml(href)}">${escapeHtml(match[1]!)}</a>`;
    from = match.index + match[0].length;
  }
  return html + escapeHtml(source.slice(from));
}

/** Inline source as a plain-text mail writes it: a link's words, then its absolute address in parentheses. */
function inlineMailText(source: string, origin: string): string {
  return source.replace(LINK, (link, words: string, target: string) => {
    const href = linkHref(target, origin);
    return href === null ? link : `${words} (${href})`;
  });
}

/** Blocks as the plain text of a mail: a blank line between blocks, list items with "- ", quotes with "> ". */
export function blocksToMailText(blocks: Block[], origin: string): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case "list":
          return block.items.map((item) => `- ${inlineMailText(item, origin)}`).join("\n");
        case "quote":
          return `> ${inlineMailText(block.text, origin)}`;
        default:
          return inlineMailText(block.text, origin);
      }
    })
    .join("\n\n");
}

/** The words a reader sees in a body: a link counts its words, not its address. */
export const bodyWordCount = (markdown: string): number => countWords(inlineText(markdown));

/** Words separated by white space, as word processors count them. */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** Index of the block at which about half of the body's words have been read. */
export function midpointIndex(blocks: Block[]): number {
  const sizes = blocks.map((b) => countWords(blockText(b)));
  const total = sizes.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let i = 0; i < blocks.length; i++) {
    seen += sizes[i]!;
    if (seen >= total / 2) return i + 1;
  }
  return blocks.length;
}

/**
 * Blocks as HTML, the elements React would render for them: every text is escaped, so the
 * result holds no markup but these elements and the links inlineHtml makes, whatever the
 * source says. With `origin`, links to the site's paths are absolute (for mail).
 */
export function blocksToHtml(blocks: Block[], options: { quoteClass: string; origin?: string }): string {
  const inline = (source: string) => inlineHtml(source, options.origin);
  let html = "";
  for (const block of blocks) {
    switch (block.type) {
      case "heading":
        html += `<h2>${inline(block.text)}</h2>`;
        break;
      case "list":
        html += `<ul>${block.items.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>`;
        break;
      case "quote":
        html += `<blockquote class="${escapeHtml(options.quoteClass)}"><p>${inline(block.text)}</p></blockquote>`;
        break;
      case "paragraph":
        html += `<p>${inline(block.text)}</p>`;
        break;
    }
  }
  return html;
}
