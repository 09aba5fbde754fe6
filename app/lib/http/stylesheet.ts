import builtHref from "virtual:site-stylesheet";

/**
 * The address of the site's one stylesheet (site-stylesheet.ts), or null when Vite serves the
 * styles itself (development). The server build is told it; the browser reads it back from the
 * page the server sent, so that hydration renders the same link.
 */
export function siteStylesheetHref(): string | null {
  if (typeof document === "undefined") return builtHref;
  return document.querySelector('link[rel="stylesheet"][href^="/assets/style-"]')?.getAttribute("href") ?? null;
}
