import type { LoaderFunctionArgs } from "@remix-run/node";
import { chartSvgOf } from "~/server/images/charts";
import { svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

/** A visual-library article's chart as its page shows it (the subscriber's download is the licensed copy). */
export const loader = withSecurityHeaders(function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.svg$/.exec(params.file ?? "");
  const svg = match ? chartSvgOf(match[1]!) : undefined;
  if (!svg) throw new Response("Not found", { status: 404 });
  return svgResponse(svg);
});
