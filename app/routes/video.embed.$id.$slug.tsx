import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { RouteHandle } from "~/app/root";
import { VideoPlayer } from "~/app/components/VideoPlayer";
import * as css from "~/app/components/video.css";
import { config } from "~/app/lib/context/db.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { playable, videoForRequest } from "~/app/lib/content/videos.server";

export const handle: RouteHandle = { bare: true };

/** The player alone, for other sites to frame; a subscriber-only video shows only its poster and a way in. */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const { video, canWatch } = await videoForRequest({ request, context }, params, (v) => v.embedUrl);
  return data(
    { title: video.title, poster: video.poster, pageUrl: `${config().siteUrl}${video.url}`, player: canWatch ? playable(video) : null },
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.title} | ${SITE_NAME}` }, { name: "robots", content: "noindex" }] : [];

export default function VideoEmbed() {
  const { title, poster, pageUrl, player } = useLoaderData<typeof loader>();
  return (
    <div className={css.embedPage}>
      <h1 className="visually-hidden">{title}</h1>
      {player ? (
        <VideoPlayer video={player} next={null} fillHeight />
      ) : (
        <div className={`${css.fillPlayer} ${css.stage}`}>
          <img className={css.poster} src={poster} alt="" width={1280} height={720} />
          <p className={css.overlay}>
            <span className={css.overlayTitle}>This video is for subscribers</span>
            <a className={css.overlayLink} href={pageUrl} target="_blank" rel="noopener">
              Watch it on {SITE_NAME}
            </a>
          </p>
        </div>
      )}
      <p className={css.embedCaption}>
        <a className={css.overlayLink} href={pageUrl} target="_blank" rel="noopener">
          {title}
        </a>{" "}
        · {SITE_NAME}
      </p>
    </div>
  );
}
