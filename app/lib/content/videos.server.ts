import { redirect } from "~/app/lib/http/responses.server";
import type { User } from "~/server/accounts/users";
import { mayWatch, videoById, type Video } from "~/server/content/videos";
import { videoMediaPath } from "~/shared/urls";
import { db } from "~/app/lib/context/db.server";
import { requestContext, type RequestArgs } from "~/app/lib/context/request-context.server";

/**
 * The video an address names, with what this reader may do with it. A wrong or missing slug
 * moves to the video's own address (`canonical` builds it); an id no video has is a 404.
 */
export async function videoForRequest(
  { request, context }: RequestArgs,
  params: { id?: string; slug?: string },
  canonical: (video: Video) => string,
): Promise<{ video: Video; canWatch: boolean; user: User | undefined }> {
  const video = /^\d{1,9}$/.test(params.id ?? "") ? await videoById(await db(), Number(params.id)) : undefined;
  if (!video) throw new Response(null, { status: 404 });
  if (params.slug !== video.slug) throw redirect(`${canonical(video)}${new URL(request.url).search}`, 301);
  const user = await requestContext({ request, context }).user();
  const subscriber = await requestContext({ request, context }).subscriber();
  return { video, canWatch: mayWatch(video, subscriber !== null), user };
}

/** What the player needs; only for a reader who may watch. An uploaded file may be an MP4 (ADR 083). */
export function playable(video: Video) {
  const file = video.uploads.file;
  return {
    title: video.title,
    poster: video.poster,
    src: videoMediaPath(video.id, file?.extension === "mp4" ? "mp4" : "webm"),
    type: file?.contentType ?? "video/webm",
    captions: videoMediaPath(video.id, "vtt"),
  };
}
