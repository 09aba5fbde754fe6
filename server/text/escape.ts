const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/**
 * Text made safe to place in HTML or XML (SVG, XHTML, EPUB metadata), as element content or as a
 * quoted attribute value, in either kind of quotes. The apostrophe is a numeric reference, as
 * React writes it, because `&apos;` is not an HTML 4 entity.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
