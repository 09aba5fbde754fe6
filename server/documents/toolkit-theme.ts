// What a toolkit's workbook (xlsx.ts) and slide deck (pptx.ts) share: what they print of the
// download besides the toolkit's own content, the site's palette and fonts, and the byline.

/** What of a download the files print besides the toolkit's own content. */
export interface ToolkitSource {
  title: string;
  product: { slug: string; authors: string[] };
}
export interface ToolkitText {
  siteName: string;
  now: Date;
}

// The site's palette (app/styles/theme.css.ts) with the store's navy.
export const NAVY = "1F3A5F";
export const ACCENT = "A1191F";
export const INK = "1A1A1A";
export const MUTED = "595959";
export const WASH = "F4F1EC";
export const RULE = "D6D2CB";
export const BAND = "E8EEF5";
export const INPUT_INK = "0B4F8A";
export const INPUT_FILL = "FFF4D6";
export const SERIF = "Georgia";
export const SANS = "Arial";

export const byline = (authors: string[]) =>
  authors.length > 1 ? `${authors.slice(0, -1).join(", ")} and ${authors[authors.length - 1]}` : (authors[0] ?? "");
