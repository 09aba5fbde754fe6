import crypto from "node:crypto";
import { applySecurityHeaders as apply, hardenResponse as harden, type HeaderSettings } from "~/server/http/response-headers";
import { config } from "~/app/lib/context/db.server";

export { applyPrivacyHeaders, isEmbeddable, isPrivatePage } from "~/server/http/response-headers";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

function settings(): HeaderSettings {
  const captchaScript = config().CAPTCHA_SECRET ? config().CAPTCHA_SCRIPT_URL : undefined;
  return { siteUrl: config().siteUrl, captchaOrigin: captchaScript ? new URL(captchaScript).origin : undefined };
}

/**
 * The security headers (server/http/response-headers.ts) with this site's settings; a document's
 * inline scripts are allowed by its nonce or, from the page cache, by their hashes.
 */
export function applySecurityHeaders(headers: Headers, inline: { nonce?: string; scriptHashes?: string[] } = {}, embeddable = false): void {
  apply(headers, settings(), { ...inline, embeddable });
}

/** The security headers and, on private pages, no-store: for any response the site sends. */
export function hardenResponse(request: Request, response: Response): Response {
  return harden(new URL(request.url).pathname, response, settings());
}
