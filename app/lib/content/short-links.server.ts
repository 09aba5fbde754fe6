import type { AppLoadContext } from "@remix-run/node";
import { addressNetwork } from "~/server/http/client-ip";
import { hit, type RateLimitResult } from "~/server/http/rate-limit";
import { shortCodeFor } from "~/server/share/short-links";
import { MAX_URL_LENGTH } from "~/app/lib/api/groups/links";
import { requestContext } from "~/app/lib/context/request-context.server";
import { config, db } from "~/app/lib/context/db.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";

// The service API's short links (integration/url/shorten): which addresses may be shortened, and how often.

/**
 * The path (with its query) of an address on this site, or undefined for anything else: another
 * host, a scheme other than http(s), text that is no address. A path must start with "/"; what is
 * kept is what the site's redirect check keeps, so a short link can never lead off the site.
 */
export function sitePathOf(value: string): string | undefined {
  const site = new URL(config().siteUrl);
  let url: URL;
  try {
    url = value.startsWith("/") ? new URL(value, site) : new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.host !== site.host) return undefined;
  const path = safeRedirectPath(url.pathname + url.search, "");
  return path !== "" && path.length <= MAX_URL_LENGTH ? path : undefined;
}

/**
 * Counts one shortening against the client's address (its network, for IPv6). With no address
 * known (remix-serve without a proxy header) every client shares one count: each call stores a
 * row, so the table's growth stays bounded even then.
 */
async function shortenAllowed(request: Request, context: AppLoadContext): Promise<RateLimitResult> {
  const c = config();
  const ip = requestContext({ request, context }).clientAddress;
  return hit(await db(), `shorten:ip:${ip ? addressNetwork(ip) : "unknown"}`, {
    limit: c.RATE_LIMIT_PER_IP,
    windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS,
  });
}

export type ShortenOutcome =
  { ok: true; shortUrl: string } | { ok: false; reason: "not-this-site" } | { ok: false; reason: "too-many"; retryAfterSeconds: number };

/** The absolute short link for an address on this site, under the per-client limit (which a refused address does not count against). */
export async function shortenUrl(request: Request, context: AppLoadContext, url: string): Promise<ShortenOutcome> {
  const path = sitePathOf(url);
  if (!path) return { ok: false, reason: "not-this-site" };
  const allowed = await shortenAllowed(request, context);
  if (!allowed.allowed) return { ok: false, reason: "too-many", retryAfterSeconds: allowed.retryAfterSeconds };
  return { ok: true, shortUrl: `${config().siteUrl}/s/${await shortCodeFor(await db(), path)}` };
}
