const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/**
 * Text made safe to place in HTML or XML (SVG, XHTML, EPUB metadata), as element content or as a
 * quoted attribute value, in either kind of quotes. The apostrophe is a numeric reference, as
 * React writes it, because `&apos;` is not an HTML 4 entity. The characters XML 1.0 cannot hold
 * even as references (control characters but tab and line breaks, U+FFFE, U+FFFF) are left out:
 * one pasted into a title would make a whole SVG or EPUB file unreadable.
 */
export function escapeHtml(text: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what it removes
  return text.replace(/[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => ESCAPES[c] ?? "");
}
