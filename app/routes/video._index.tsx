import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useLoaderData } from "@remix-run/react";
import { lastPage, parsePaging } from "~/shared/pagination";
import { allPlaylists, playlistBySlug, PLAYLIST_STEP, VIDEO_PAGE_SIZE, videoList } from "~/server/content/videos";
import { Pagination } from "~/app/components/Pagination";
import { VideoCard } from "~/app/components/VideoCard";
import * as cards from "~/app/components/cards.css";
import * as prose from "~/app/components/prose.css";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";

export async function loader({ request }: LoaderFunctionArgs) {
  const database = await db();
  const params = new URL(request.url).searchParams;
  // A playlist opens on its first video, at that video's own address.
  const playlistSlug = params.get("playlist");
  if (playlistSlug !== null) {
    const playlist = /^[A-Za-z0-9-]{1,80}$/.test(playlistSlug) ? await playlistBySlug(database, playlistSlug) : undefined;
    const first = playlist?.videos[0];
    throw redirect(playlist && first ? `${first.url}?playlist=${playlist.slug}` : "/video");
  }
  const { page } = parsePaging(params, false);
  const [{ videos, total }, playlists] = await Promise.all([videoList(database, page), allPlaylists(database)]);
  const last = lastPage(total, VIDEO_PAGE_SIZE);
  if (page > last) throw new Response(null, { status: 404 });
  return {
    page,
    last,
    videos,
    playlists: playlists.map((p) => ({ slug: p.slug, name: p.name, total: p.videos.length, videos: p.videos.slice(0, PLAYLIST_STEP) })),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo({
    title: data && data.page > 1 ? `Video, page ${data.page}` : "Video",
    description:
      "Short videos from Meridian Review: managers and researchers on strategy, operations, finance, leadership and more, in playlists and on their own.",
    path: data && data.page > 1 ? `/video?page=${data.page}` : "/video",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("video"),
  });

export default function VideoHub() {
  const { page, last, videos, playlists } = useLoaderData<typeof loader>();
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Video</h1>
        <p className={prose.lede}>Ideas you can use, explained in a few minutes by the people who tried them.</p>
      </header>
      {page === 1
        ? playlists.map((p) => (
            <section key={p.slug} aria-labelledby={`playlist-${p.slug}`}>
              <h2 id={`playlist-${p.slug}`}>{p.name}</h2>
              <p>
                {p.total} videos · <Link to={`/video?playlist=${p.slug}`}>Play all</Link>
              </p>
              <ul className={cards.grid}>
                {p.videos.map((v) => (
                  <li key={v.id}>
                    <VideoCard card={v} href={`${v.url}?playlist=${p.slug}`} />
                  </li>
                ))}
              </ul>
            </section>
          ))
        : null}
      <section aria-labelledby="all-videos">
        <h2 id="all-videos">All videos</h2>
        <ul className={cards.grid}>
          {videos.map((v) => (
            <li key={v.id}>
              <VideoCard card={v} />
            </li>
          ))}
        </ul>
        <Pagination current={page} last={last} href={(n) => (n === 1 ? "/video" : `/video?page=${n}`)} label="Video pages" />
      </section>
    </>
  );
}
