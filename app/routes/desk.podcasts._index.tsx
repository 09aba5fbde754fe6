import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listPodcastSeries } from "~/server/desk/media";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskMeta } from "~/app/lib/desk/meta";

// The podcast series (admins and editors, ADR 083): each leads to its episodes.

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "media.list");
  return { series: await listPodcastSeries(await requestContext({ request, context }).db()) };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "media.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Podcasts");

export default function DeskPodcasts() {
  const { series } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Podcasts">
      <table className={css.table}>
        <caption className="visually-hidden">Podcast series</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Kind</th>
            <th scope="col">Episodes</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.id}>
              <td data-label="Series">
                <Link to={`/desk/podcasts/${s.slug}`}>{s.title}</Link>
              </td>
              <td data-label="Kind">{s.feedType === "serial" ? "Serial: heard in order" : "Episodic: newest first"}</td>
              <td data-label="Episodes">{s.episodes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </DeskPage>
  );
}
