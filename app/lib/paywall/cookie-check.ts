import { useEffect } from "react";

/**
 * The query value an article's first-visit redirect adds (app/lib/context/article-reader.server.ts): when it
 * comes back without the visitor cookie the redirect set, the client keeps no cookies.
 */
export const COOKIE_CHECK_PARAM = "cookie-check";

/** Takes the cookie check's query value out of the address bar, so it is not bookmarked or shared. */
export function useTidyCookieCheck(): void {
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(COOKIE_CHECK_PARAM)) return;
    url.searchParams.delete(COOKIE_CHECK_PARAM);
    window.history.replaceState(window.history.state, "", url);
  }, []);
}
