import { redirect as remixRedirect } from "@remix-run/node";
import { applySecurityHeaders, hardenResponse } from "./security.server";

function withHeaders(body: string | Uint8Array<ArrayBuffer>, contentType: string, maxAge: number): Response {
  const headers = new Headers({ "Content-Type": contentType, "Cache-Control": `public, max-age=${maxAge}` });
  applySecurityHeaders(headers);
  return new Response(body, { headers });
}

/** Drawn art: the same for everyone, so browsers keep it for 30 days (the server keeps it too: server/http/generated-files.ts). */
export const svgResponse = (svg: string) => withHeaders(svg, "image/svg+xml", 2_592_000);
/** Drawn art as a PNG (for the places that take no SVG), kept as long. */
export const pngResponse = (png: Uint8Array) => withHeaders(new Uint8Array(png), "image/png", 2_592_000);
export const xmlResponse = (xml: string) => withHeaders(xml, "application/xml; charset=utf-8", 900);
export const rssResponse = (xml: string) => withHeaders(xml, "application/rss+xml; charset=utf-8", 900);
export const textResponse = (text: string) => withHeaders(text, "text/plain; charset=utf-8", 3_600);

/**
 * Remix's redirect, carrying the security headers: remix-serve sends a loader's or action's
 * redirect as it is, past entry.server. Routes import `redirect` from here, never from
 * @remix-run/node (tests/unit/response-headers.test.ts checks).
 */
export const redirect: typeof remixRedirect = (url, init) => {
  const response = remixRedirect(url, init);
  applySecurityHeaders(response.headers);
  return response;
};

/**
 * A resource route's loader or action whose answers, returned or thrown, carry the security
 * headers (and no-store on private pages): remix-serve passes a resource route's response on
 * untouched. Every resource route wraps its loader and action in this.
 */
export function withSecurityHeaders<A extends { request: Request }>(handler: (args: A) => Response | Promise<Response>) {
  return async (args: A): Promise<Response> => {
    try {
      return hardenResponse(args.request, await handler(args));
    } catch (thrown) {
      throw thrown instanceof Response ? hardenResponse(args.request, thrown) : thrown;
    }
  };
}
