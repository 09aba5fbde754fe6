import type { LoaderFunctionArgs } from "@remix-run/node";
import { podcastCover } from "../../server/art";
import { podcastSeries } from "../../server/podcasts";
import { db } from "../lib/db.server";
import { svgResponse, withSecurityHeaders } from "../lib/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.svg$/.exec(params.file ?? "");
  const series = match ? await podcastSeries(await db(), match[1]!) : undefined;
  if (!series) throw new Response("Not found", { status: 404 });
  return svgResponse(podcastCover(series));
});
