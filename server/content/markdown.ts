// The small Markdown subset used by article bodies, parsed to plain data so the
// server can split, count and index it without knowing how it is displayed.
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

export function blockText(block: Block): string {
  return block.type === "list" ? block.items.join(" ") : block.text;
}

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
 * result holds no markup but these elements whatever the source says.
 */
export function blocksToHtml(blocks: Block[], options: { quoteClass: string }): string {
  let html = "";
  for (const block of blocks) {
    switch (block.type) {
      case "heading":
        html += `<h2>${escapeHtml(block.text)}</h2>`;
        break;
      case "list":
        html += `<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
        break;
      case "quote":
        html += `<blockquote class="${escapeHtml(options.quoteClass)}"><p>${escapeHtml(block.text)}</p></blockquote>`;
        break;
      case "paragraph":
        html += `<p>${escapeHtml(block.text)}</p>`;
        break;
    }
  }
  return html;
}
