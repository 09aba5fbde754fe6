import type { LoaderFunctionArgs } from "@remix-run/node";
import { podcastEpisodesById } from "~/server/content/podcast-episodes";
import { episodeAudioFile } from "~/server/content/podcasts";
import { db } from "~/app/lib/context/db.server";
import { mediaFileResponse, uploadedMediaResponse } from "~/app/lib/content/media-files.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

/** An episode's audio, uploaded (ADR 083) or the seed's, with byte ranges for seeking; podcasts are free to everyone. */
export const loader = withSecurityHeaders(async function loader({ params, request }: LoaderFunctionArgs) {
  const match = /^(\d{1,9})\.mp3$/.exec(params.file ?? "");
  const [episode] = match ? await podcastEpisodesById(await db(), [Number(match[1])]) : [];
  if (!episode) throw new Response("Not found", { status: 404 });
  if (episode.audioFileId) return uploadedMediaResponse(request, episode.audioFileId, "public");
  return mediaFileResponse(request, episodeAudioFile(episode), "audio/mpeg", "public, max-age=86400");
});
