import type { LoaderFunctionArgs } from "@remix-run/node";
import { podcastArtwork, podcastCover } from "~/server/images/art";
import { podcastSeries } from "~/server/content/podcasts";
import { db } from "~/app/lib/context/db.server";
import { pngResponse, svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

/** A show's cover: SVG for the site's pages, PNG for the podcast feed's directories. */
export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.(svg|png)$/.exec(params.file ?? "");
  const series = match ? await podcastSeries(await db(), match[1]!) : undefined;
  if (!series) throw new Response("Not found", { status: 404 });
  return match![2] === "png" ? pngResponse(await podcastArtwork(series)) : svgResponse(podcastCover(series));
});
