import type { LoaderFunctionArgs } from "@remix-run/node";
import { videoById, videoFile } from "~/server/content/videos";
import { db } from "~/app/lib/context/db.server";
import { mediaFileResponse, uploadedMediaResponse } from "~/app/lib/content/media-files.server";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

const SEED_TYPES = { webm: "video/webm", vtt: "text/vtt; charset=utf-8" } as const;

/**
 * A video's media file or captions; a subscriber-only video's only for subscribers. An uploaded
 * file (ADR 083) is at the extension of the format it was decoded as; without one, the seed's
 * WebM and captions are served.
 */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const match = /^(\d{1,9})\.(webm|mp4|vtt)$/.exec(params.file ?? "");
  const video = match ? await videoById(await db(), Number(match[1])) : undefined;
  if (!match || !video) throw new Response("Not found", { status: 404 });
  if (video.subscriberOnly && !(await currentSubscriber({ request, context }))) {
    throw new Response("This video is for subscribers.", { status: 403, headers: { "Cache-Control": "private, no-store" } });
  }
  const kind = match[2] as "webm" | "mp4" | "vtt";
  const upload = kind === "vtt" ? video.uploads.captions : video.uploads.file;
  if (upload) {
    if (upload.extension !== kind) throw new Response("Not found", { status: 404 });
    return uploadedMediaResponse(request, upload.id, video.subscriberOnly ? "private" : "public");
  }
  if (kind === "mp4") throw new Response("Not found", { status: 404 });
  // What anyone may watch may be cached anywhere; a subscriber's copy only by their browser.
  const cache = video.subscriberOnly ? "private, max-age=3600" : "public, max-age=86400";
  return mediaFileResponse(request, videoFile(video.slug, kind), SEED_TYPES[kind], cache);
});
