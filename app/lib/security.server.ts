import crypto from "node:crypto";
import { config } from "./db.server";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

/** The captcha provider's origin, when captcha is on: its script, frames and calls are allowed. */
function captchaOrigin(): string {
  const url = config().CAPTCHA_SECRET ? config().CAPTCHA_SCRIPT_URL : undefined;
  return url ? ` ${new URL(url).origin}` : "";
}

/** Pages other sites may show in a frame: the video embeds. */
export const isEmbeddable = (pathname: string) => pathname.startsWith("/video/embed/");

/**
 * Headers every response carries. The CSP allows scripts only from this origin or with the
 * page's nonce; only an embeddable page may be framed by another site.
 */
export function applySecurityHeaders(headers: Headers, nonce?: string, embeddable = false): void {
  const extra = captchaOrigin();
  const script = (nonce ? `'self' 'nonce-${nonce}'` : "'self'") + extra;
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
      `frame-ancestors ${embeddable ? "*" : "'self'"}`,
    ].join("; "),
  );
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  if (embeddable) headers.delete("X-Frame-Options");
  else headers.set("X-Frame-Options", "SAMEORIGIN");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
}
