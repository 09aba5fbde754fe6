import type { LoaderFunctionArgs } from "@remix-run/node";
import { videoById, videoFile } from "~/server/content/videos";
import { db } from "~/app/lib/context/db.server";
import { mediaFileResponse } from "~/app/lib/content/media-files.server";
import { currentSubscriber } from "~/app/lib/subscriptions/subscriber.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

const TYPES = { webm: "video/webm", vtt: "text/vtt; charset=utf-8" } as const;

/** A video's media file or captions; a subscriber-only video's only for subscribers. */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const match = /^(\d{1,9})\.(webm|vtt)$/.exec(params.file ?? "");
  const video = match ? await videoById(await db(), Number(match[1])) : undefined;
  if (!match || !video) throw new Response("Not found", { status: 404 });
  if (video.subscriberOnly && !(await currentSubscriber({ request, context }))) {
    throw new Response("This video is for subscribers.", { status: 403, headers: { "Cache-Control": "private, no-store" } });
  }
  const kind = match[2] as keyof typeof TYPES;
  // What anyone may watch may be cached anywhere; a subscriber's copy only by their browser.
  const cache = video.subscriberOnly ? "private, max-age=3600" : "public, max-age=86400";
  return mediaFileResponse(request, videoFile(video.slug, kind), TYPES[kind], cache);
});
