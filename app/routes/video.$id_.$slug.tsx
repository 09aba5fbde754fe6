import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useLoaderData } from "@remix-run/react";
import { socialCard } from "~/shared/social-cards";
import { recordView } from "~/server/library/history";
import { escapeHtml } from "~/server/text/escape";
import {
  nextInPlaylist,
  nextVideo,
  playlistBySlug,
  PLAYLIST_STEP,
  videoList,
  type Playlist,
  type VideoCard,
} from "~/server/content/videos";
import { JsonLd } from "~/app/components/JsonLd";
import { ShareLinks } from "~/app/components/ShareLinks";
import { SaveControl } from "~/app/components/library/SaveControl";
import { ShareControl } from "~/app/components/library/ShareControl";
import { VideoPlayer } from "~/app/components/VideoPlayer";
import { VideoWall } from "~/app/components/VideoWall";
import * as cards from "~/app/components/cards.css";
import { toolRow } from "~/app/components/controls.css";
import * as css from "~/app/components/video.css";
import { config, db } from "~/app/lib/context/db.server";
import { formatDuration, formatPublished } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { SITE_NAME } from "~/app/lib/forms/cross-site";
import { playable, videoForRequest } from "~/app/lib/content/videos.server";

const MAX_SHOWN = 600;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const { video, canWatch, user } = await videoForRequest({ request, context }, params, (v) => v.url);
  const signedIn = user !== undefined;
  const database = await db();
  if (user && canWatch) await recordView(database, user.id, { type: "video", id: video.id });
  const url = new URL(request.url);

  const playlistSlug = url.searchParams.get("playlist");
  let playlist: Playlist | undefined;
  if (playlistSlug !== null) {
    playlist = /^[A-Za-z0-9-]{1,80}$/.test(playlistSlug) ? await playlistBySlug(database, playlistSlug) : undefined;
    // An unknown playlist, or one without this video, goes back to the bare video address.
    if (!playlist?.videos.some((v) => v.id === video.id)) throw redirect(video.url);
  }
  const inPlaylist = (v: VideoCard) => (playlist ? `${v.url}?playlist=${playlist.slug}` : v.url);
  const next = playlist ? nextInPlaylist(playlist, video.id) : await nextVideo(database, video.id);

  let playlistView = null;
  if (playlist) {
    // "Load more" adds PLAYLIST_STEP at a time; the list always reaches the video being watched.
    const asked = Number(/^\d{1,4}$/.test(url.searchParams.get("shown") ?? "") ? url.searchParams.get("shown") : PLAYLIST_STEP);
    const position = playlist.videos.findIndex((v) => v.id === video.id) + 1;
    const shown = Math.min(Math.max(asked, PLAYLIST_STEP, Math.ceil(position / PLAYLIST_STEP) * PLAYLIST_STEP), MAX_SHOWN);
    playlistView = {
      slug: playlist.slug,
      name: playlist.name,
      total: playlist.videos.length,
      moreUrl: shown < playlist.videos.length ? `${video.url}?playlist=${playlist.slug}&shown=${shown + PLAYLIST_STEP}` : null,
      items: playlist.videos.slice(0, shown).map((v) => ({ ...v, url: inPlaylist(v) })),
    };
  }
  const more = playlist ? [] : (await videoList(database, 1)).videos.filter((v) => v.id !== video.id).slice(0, PLAYLIST_STEP);

  return data(
    {
      video,
      siteUrl: config().siteUrl,
      embedCode: embedCode(config().siteUrl, video),
      canWatch,
      signedIn,
      player: canWatch ? playable(video) : null,
      abTag: config().PAYWALL_VIDEO_TAG,
      next: next && canWatch ? { title: next.title, url: inPlaylist(next) } : null,
      playlist: playlistView,
      more,
    },
    // What the page offers depends on who asks.
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-cache",
});

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [];
  const { video } = data;
  return seo({
    title: video.title,
    description: video.description,
    path: video.url,
    siteUrl: siteUrlFrom(matches),
    type: "video.other",
    card: socialCard("video", video.slug, video.title),
  });
};

function jsonLd({ video, siteUrl, player }: ReturnType<typeof useLoaderData<typeof loader>>) {
  return {
    "@context": "https://schema.org",
    "@type": "VideoObject",
    name: video.title,
    description: video.description,
    thumbnailUrl: [`${siteUrl}${video.poster}`],
    uploadDate: video.published,
    duration: `PT${video.durationSeconds}S`,
    embedUrl: video.subscriberOnly ? undefined : `${siteUrl}${video.embedUrl}`,
    publisher: { "@type": "Organization", name: SITE_NAME },
    isAccessibleForFree: !video.subscriberOnly,
    ...(player && !video.subscriberOnly ? { contentUrl: `${siteUrl}${player.src}` } : {}),
  };
}

function embedCode(siteUrl: string, video: { embedUrl: string; title: string }): string {
  return `<iframe src="${siteUrl}${video.embedUrl}" width="640" height="360" title="${escapeHtml(video.title)}" allow="fullscreen" style="border:0"></iframe>`;
}

export default function VideoRoute() {
  const loaded = useLoaderData<typeof loader>();
  const { video, canWatch, player, next, playlist, more, siteUrl, embedCode } = loaded;
  const pageUrl = `${siteUrl}${video.url}`;
  return (
    <div className={css.layout}>
      <JsonLd data={jsonLd(loaded)} />
      <article>
        <p className={cards.eyebrow}>
          <Link className={cards.eyebrowLink} to={video.topic.url}>
            {video.topic.name}
          </Link>{" "}
          · Video{video.subscriberOnly ? " · For subscribers" : null}
        </p>
        <h1>{video.title}</h1>
        <p className={css.meta}>
          {formatDuration(video.durationSeconds)} · <time dateTime={video.published}>{formatPublished(video.published)}</time>
        </p>
        <div className={toolRow}>
          <SaveControl type="video" id={video.id} title={video.title} look="tool" />
          {canWatch ? <ShareControl type="video" id={video.id} title={video.title} url={pageUrl} /> : null}
        </div>
        {player ? (
          <VideoPlayer key={video.id} video={player} next={next} />
        ) : (
          <VideoWall poster={video.poster} videoUrl={video.url} abTag={loaded.abTag} signedIn={loaded.signedIn} />
        )}
        <p>{video.description}</p>
        <ul className={css.tags} aria-label="Tags">
          {video.tags.map((t) => (
            <li key={t} className={css.tag}>
              {t}
            </li>
          ))}
        </ul>
        {/* Sharing and embedding pass the video on: for a subscriber-only video, only its subscribers may. */}
        {canWatch ? (
          <div className={css.tools}>
            <ShareLinks type="video" id={video.id} url={pageUrl} title={video.title} heading="Share this video" />
            <details>
              <summary>Embed this video</summary>
              <label htmlFor="embed-code">Copy this code into your page</label>
              <textarea id="embed-code" className={css.embedCode} readOnly rows={3} value={embedCode} />
            </details>
          </div>
        ) : null}
      </article>
      <aside className={css.playlist} aria-label={playlist ? `Playlist: ${playlist.name}` : "More videos"}>
        {playlist ? (
          <>
            <h2 className={css.toolHeading}>{playlist.name}</h2>
            <p>
              {playlist.total} videos · <Link to={video.url}>Leave the playlist</Link>
            </p>
            <VideoList videos={playlist.items} currentId={video.id} />
            {playlist.moreUrl ? (
              <Link to={playlist.moreUrl} preventScrollReset>
                Load more videos
              </Link>
            ) : null}
          </>
        ) : (
          <>
            <h2 className={css.toolHeading}>More videos</h2>
            <VideoList videos={more} currentId={video.id} />
            <Link to="/video">All videos and playlists</Link>
          </>
        )}
      </aside>
    </div>
  );
}

function VideoList({ videos, currentId }: { videos: VideoCard[]; currentId: number }) {
  return (
    <ol className={css.playlistItems}>
      {videos.map((v) => (
        <li key={v.id} className={css.playlistItem}>
          <img className={css.thumb} src={v.poster} alt="" width={112} height={63} loading="lazy" />
          <span>
            {v.id === currentId ? (
              <span className={css.current} aria-current="true">
                {v.title} <span className="visually-hidden">(now playing)</span>
              </span>
            ) : (
              <Link to={v.url} className={`${cards.cardTitleLink} ${css.itemTitle}`}>
                {v.title}
              </Link>
            )}
            <span className={css.itemMeta}>
              {formatDuration(v.durationSeconds)}
              {v.subscriberOnly ? " · For subscribers" : null}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
