import { COOKIE_CHECK_PARAM } from "~/app/lib/paywall/cookie-check";

const BASE = "http://site.invalid";
const MAX_LENGTH = 2048;

/** A path whose decoded form has a backslash, "//", a "." or ".." segment, or a control character. */
function hasUnsafePart(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  return /[\\\u0000-\u001f\u007f]|\/\/|(^|\/)\.\.?(\/|$)/.test(decoded);
}

/**
 * The one check for every redirect target taken from a request (redirectTo, return, from…):
 * only a path on this site. The value is normalised the way a browser would resolve it (dot
 * segments, percent-encoding), and refused when what is left could leave the site or still
 * hides a backslash, "//" or dot segment. Anything refused becomes `fallback`.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || value.length > MAX_LENGTH || !value.startsWith("/")) return fallback;
  // The URL parser drops tabs and newlines and reads "\" as "/": refuse them before it can.
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE || hasUnsafePart(url.pathname)) return fallback;
  // A page's first-visit cookie check has done its work once the reader acts on the page.
  if (url.searchParams.has(COOKIE_CHECK_PARAM)) url.searchParams.delete(COOKIE_CHECK_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Pages that only lead back to another (sign-in, registration, the no-JS menu), and the query value naming it. */
const WAYPOINTS: Record<string, string> = { "/sign-in": "redirectTo", "/register": "redirectTo", "/menu": "return" };
/** More waypoints wrapped in one another than a link of the site ever made: an old or made-up address. */
const MAX_WRAPPED = 4;

/**
 * Where a sign-in, registration or menu link leads back to from `path` (the page it is on, or a
 * redirectTo taken from a request): the page itself, or, when it is one of those pages, where
 * that one leads, so such links never wrap one another (ever longer addresses for crawlers).
 * Checked as safeRedirectPath checks, with "/" for anything refused.
 */
export function returnPath(path: FormDataEntryValue | string | null | undefined): string {
  let target = safeRedirectPath(path);
  for (let wrapped = 0; wrapped <= MAX_WRAPPED; wrapped++) {
    const url = new URL(target, BASE);
    if (!Object.hasOwn(WAYPOINTS, url.pathname)) return target;
    target = safeRedirectPath(url.searchParams.get(WAYPOINTS[url.pathname]!));
  }
  return "/";
}

/** The same-site path with one query value set (e.g. registration=success). */
export function withQueryValue(path: string, name: string, value: string): string {
  const url = new URL(path, BASE);
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
