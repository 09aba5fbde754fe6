import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDeskEpisodes, podcastSeriesBySlug } from "~/server/desk/media";
import { mayAct } from "~/server/desk/roles";
import { EPISODE_TYPE_NAMES } from "~/shared/media-vocabulary";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { CATALOGUE_PAGE_SIZE, listingQuery } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// A series' episodes (ADR 083): newest first, found by words in the title, 25 a page.

const AUDIO_NAMES = { upload: "Uploaded", seed: "Seed file", none: "None yet" } as const;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.list");
  const database = await requestContext({ request, context }).db();
  const series = await podcastSeriesBySlug(database, params.series ?? "");
  if (!series) notFound();
  const { q, page, problem } = listingQuery(request);
  const found = await listDeskEpisodes(database, series, { q, page, pageSize: CATALOGUE_PAGE_SIZE });
  return {
    series,
    q,
    page,
    problem,
    total: found.total,
    items: found.items.map((e) => ({ ...e, audio: AUDIO_NAMES[e.audio], episodeType: EPISODE_TYPE_NAMES[e.episodeType] })),
    pageSize: CATALOGUE_PAGE_SIZE,
    mayAdd: mayAct(staff.roles, "media.edit"),
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "media.list");
  notFound();
};

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Podcast: ${args.data.series.title}` : "Podcast");

export default function DeskPodcastEpisodes() {
  const { series, q, page, problem, total, items, pageSize, mayAdd } = useLoaderData<typeof loader>();
  const base = `/desk/podcasts/${series.slug}`;
  return (
    <DeskPage title={series.title}>
      <p className={css.muted}>
        <Link to="/desk/podcasts">All podcasts</Link> · <a href={`/podcasts/${series.slug}`}>its page</a> ·{" "}
        <a href={`/podcasts/${series.slug}/feed.xml`}>its feed</a>
      </p>
      {mayAdd ? (
        <p>
          <Link to={`${base}/new`}>Add an episode</Link>
        </p>
      ) : null}
      <CatalogueListing
        base={base}
        noun={["episode", "episodes"]}
        q={q}
        page={page}
        total={total}
        pageSize={pageSize}
        problem={problem}
        order="newest first"
        caption="Episodes"
        columns={["Title", "Published", "Season and number", "Type", "Audio"]}
        rows={items.map((e) => ({
          key: e.id,
          cells: [
            <Link key="title" to={`${base}/${e.id}`}>
              {e.title}
            </Link>,
            e.pubDate,
            `S${e.season} E${e.episode}`,
            e.episodeType,
            e.audio,
          ],
        }))}
      />
    </DeskPage>
  );
}
