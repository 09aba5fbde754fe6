import type { LoaderFunctionArgs } from "@remix-run/node";
import { episodeArtwork, episodeCover } from "~/server/images/art";
import { podcastEpisodePage } from "~/server/content/podcasts";
import { db } from "~/app/lib/context/db.server";
import { pngResponse, svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

/** An episode's cover: SVG for its page, PNG for the feed's `itunes:image`. */
export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const match = /^(\d{1,9})\.(svg|png)$/.exec(params.file ?? "");
  const page = match ? await podcastEpisodePage(await db(), Number(match[1])) : undefined;
  if (!page) throw new Response("Not found", { status: 404 });
  const series = { ...page.series, serial: page.series.feedType === "serial" };
  return match![2] === "png" ? pngResponse(await episodeArtwork(series, page.episode)) : svgResponse(episodeCover(series, page.episode));
});
