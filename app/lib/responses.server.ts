import { applySecurityHeaders } from "./security.server";

function withHeaders(body: string, contentType: string, maxAge: number): Response {
  const headers = new Headers({ "Content-Type": contentType, "Cache-Control": `public, max-age=${maxAge}` });
  applySecurityHeaders(headers);
  return new Response(body, { headers });
}

export const svgResponse = (svg: string) => withHeaders(svg, "image/svg+xml", 86_400);
export const xmlResponse = (xml: string) => withHeaders(xml, "application/xml; charset=utf-8", 900);
export const rssResponse = (xml: string) => withHeaders(xml, "application/rss+xml; charset=utf-8", 900);
export const textResponse = (text: string) => withHeaders(text, "text/plain; charset=utf-8", 3_600);
