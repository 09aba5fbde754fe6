// The headers every response of the site carries, in one place: app/entry.server.tsx adds them
// to documents and data requests, the resource-route helpers to what they build, and a server in
// front of Remix can pass every response through `hardenResponse`.

export interface HeaderSettings {
  /** SITE_URL: an https address turns on HSTS. */
  siteUrl: string;
  /** The captcha provider's origin when captcha is on: its script, frames and calls are allowed. */
  captchaOrigin?: string;
}

/** Pages other sites may show in a frame: the video embeds. */
export const isEmbeddable = (pathname: string) => pathname.startsWith("/video/embed/");

// Account, sign-in, checkout and order pages: one reader's own, never kept by a browser or proxy.
const PRIVATE_PAGES = [
  /^\/my-account(?:[/_.]|$)/,
  /^\/my-library(?:[/_.]|$)/,
  /^\/shopping-cart(?:[/_.]|$)/,
  /^\/(?:shipping-payment|review-order|registration-complete|sign-in|register|reset-password|forgot-password|logout|subscriber-registration|redeem)(?:\.data)?$/,
  /^\/subscriptions\/(?:checkout|receipt|complete)(?:\.data)?$/,
  /^\/(?:order|sandbox-checkout)\//,
  // An article's preview (ADR 079): private to whoever holds its link.
  /^\/preview\//,
];

/** True for a page (or its .data request) that must answer Cache-Control: no-store. */
export const isPrivatePage = (pathname: string) => PRIVATE_PAGES.some((page) => page.test(pathname));

const isDeskPage = (pathname: string) => /^\/desk(?:[/.]|$)/.test(pathname);

/**
 * no-store on private pages. The desk's pages (ADR 072) are private and never indexed; its 404,
 * what everyone without a role gets there, stays the site's ordinary 404, headers and all, so
 * that nothing tells a reader the desk exists.
 */
export function applyPrivacyHeaders(pathname: string, status: number, headers: Headers): void {
  if (isDeskPage(pathname) && status !== 404) {
    headers.set("Cache-Control", "no-store");
    headers.set("X-Robots-Tag", "noindex, nofollow");
  } else if (isPrivatePage(pathname)) headers.set("Cache-Control", "no-store");
}

/**
 * Sets the security headers. The CSP allows scripts only from this origin, or inline with the
 * page's nonce or one of the given hashes (a page from the page cache); only an embeddable page
 * may be framed by another site; an https site adds HSTS.
 */
export function applySecurityHeaders(
  headers: Headers,
  settings: HeaderSettings,
  options: { nonce?: string; scriptHashes?: string[]; embeddable?: boolean } = {},
): void {
  const extra = settings.captchaOrigin ? ` ${settings.captchaOrigin}` : "";
  const inline = [...(options.nonce ? [`'nonce-${options.nonce}'`] : []), ...(options.scriptHashes ?? [])];
  const script = ["'self'", ...inline].join(" ") + extra;
  headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src ${script}`,
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src 'self'${extra}`,
      `frame-src 'self'${extra}`,
      "object-src 'none'",
      "base-uri 'self'",
      // The share action answers with a redirect to the network's own share page.
      "form-action 'self' https://www.facebook.com https://x.com https://www.linkedin.com",
      `frame-ancestors ${options.embeddable ? "*" : "'self'"}`,
    ].join("; "),
  );
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  if (options.embeddable) headers.delete("X-Frame-Options");
  else headers.set("X-Frame-Options", "SAMEORIGIN");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (settings.siteUrl.startsWith("https:")) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  else headers.delete("Strict-Transport-Security");
}

/**
 * Any response of the site made whole: the security headers unless it already has its own (a
 * document's nonce CSP), and the private pages' headers. Returns a copy when the original's
 * headers cannot be changed.
 */
export function hardenResponse(pathname: string, response: Response, settings: HeaderSettings): Response {
  let target = response;
  try {
    target.headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    target = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    });
  }
  if (!target.headers.has("Content-Security-Policy"))
    applySecurityHeaders(target.headers, settings, { embeddable: isEmbeddable(pathname) });
  applyPrivacyHeaders(pathname, target.status, target.headers);
  return target;
}
