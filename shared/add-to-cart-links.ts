/**
 * Spec section 2: the add action on a product link that does not already contain /an/ inserts
 * an /an/ segment after the third path segment; external links and links without /product/ are
 * used as they are.
 *
 * "Path segment" is read as RFC 3986 has it: the parts between slashes after the leading one,
 * so in /product/{slug}/{availabilityId} the third segment is the availability id and
 * /product/the-patient-ledger/1001 becomes /product/the-patient-ledger/1001/an/ (anything
 * after the third segment follows the /an/). That page redirects to the product's canonical
 * page. A product path with fewer than three segments (the short form /product/{id}) has no
 * third segment to follow and stays as it is.
 *
 * siteUrl is the site's own origin: absolute links to it are rewritten, links to any other
 * origin are not. Without it, every absolute link counts as external.
 */
export function addToCartHref(href: string, siteUrl?: string): string {
  const relative = href.startsWith("/") && !href.startsWith("//");
  let url: URL;
  try {
    url = new URL(href, siteUrl ?? "http://relative.invalid");
  } catch {
    return href;
  }
  if (!relative && (siteUrl === undefined || url.origin !== new URL(siteUrl).origin)) return href;
  if (!url.pathname.includes("/product/") || url.pathname.includes("/an/")) return href;
  const [first, second, third, ...rest] = url.pathname.split("/").slice(1);
  if (!third) return href;
  const path = `/${first}/${second}/${third}/an/${rest.join("/")}${url.search}${url.hash}`;
  return relative ? path : `${url.origin}${path}`;
}
