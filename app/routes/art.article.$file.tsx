import type { LoaderFunctionArgs } from "@remix-run/node";
import { articleArt } from "~/server/images/art";
import { svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.svg$/.exec(params.file ?? "");
  if (!match) throw new Response("Not found", { status: 404 });
  return svgResponse(articleArt(match[1]!));
});
