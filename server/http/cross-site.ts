// The browser's word on who started a request. Used by every action (app/lib/forms/guard.server.ts)
// and by a server in front of Remix, which must act before Remix's own Origin check does.

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * True when another site started the request: Sec-Fetch-Site when the browser sends it (only
 * "same-origin" and "none", the reader's own address bar or bookmark, count as ours), else an
 * Origin header that is not one of `ownOrigins`. A request with neither header comes from a
 * client that is not a browser, which holds no reader's cookies.
 */
export function isCrossSite(headers: Headers, ownOrigins: readonly string[]): boolean {
  const fetchSite = headers.get("Sec-Fetch-Site");
  if (fetchSite) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = headers.get("Origin");
  return origin !== null && !ownOrigins.includes(origin);
}

/**
 * Remix refuses a form post whose Origin is not its Host before any route code runs, with an
 * empty 500. A server in front of Remix passes such a post on as what it is, a cross-site
 * request (Sec-Fetch-Site: cross-site, Origin removed), so the action's own check answers it
 * with the 403 page inside the site. Other requests are passed on unchanged.
 */
export function foreignOriginAsCrossSite(request: Request, ownOrigins: readonly string[]): Request {
  if (!UNSAFE_METHODS.has(request.method)) return request;
  const origin = request.headers.get("Origin");
  if (origin === null || ownOrigins.includes(origin)) return request;
  const headers = new Headers(request.headers);
  headers.delete("Origin");
  headers.set("Sec-Fetch-Site", "cross-site");
  return new Request(request, { headers });
}
