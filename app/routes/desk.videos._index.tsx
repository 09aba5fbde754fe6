import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDeskVideos } from "~/server/desk/media";
import { mayAct } from "~/server/desk/roles";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { CATALOGUE_PAGE_SIZE, listingQuery } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Videos (admins and editors, ADR 083): newest first, found by words in the title or slug, in
// pages of 25 with plain links that keep the search.

const FILE_NAMES = { upload: "Uploaded", seed: "Seed file", none: "None yet" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.list");
  const { q, page, problem } = listingQuery(request);
  const found = await listDeskVideos(await requestContext({ request, context }).db(), { q, page, pageSize: CATALOGUE_PAGE_SIZE });
  return {
    q,
    page,
    problem,
    total: found.total,
    items: found.items.map((v) => ({ ...v, file: FILE_NAMES[v.file] })),
    pageSize: CATALOGUE_PAGE_SIZE,
    mayAdd: mayAct(staff.roles, "media.edit"),
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "media.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Videos");

export default function DeskVideos() {
  const { q, page, problem, total, items, pageSize, mayAdd } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Videos">
      {mayAdd ? (
        <p>
          <Link to="/desk/videos/new">Add a video</Link>
        </p>
      ) : null}
      <CatalogueListing
        base="/desk/videos"
        noun={["video", "videos"]}
        q={q}
        page={page}
        total={total}
        pageSize={pageSize}
        problem={problem}
        order="newest first"
      >
        {items.length > 0 ? (
          <table className={css.table}>
            <caption className="visually-hidden">Videos</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Published</th>
                <th scope="col">Topic</th>
                <th scope="col">Who may watch</th>
                <th scope="col">Video file</th>
              </tr>
            </thead>
            <tbody>
              {items.map((video) => (
                <tr key={video.id}>
                  <td data-label="Title">
                    <Link to={`/desk/videos/${video.id}`}>{video.title}</Link>
                  </td>
                  <td data-label="Published">{video.published}</td>
                  <td data-label="Topic">{video.topic}</td>
                  <td data-label="Who may watch">{video.subscriberOnly ? "Subscribers" : "Everyone"}</td>
                  <td data-label="Video file">{video.file}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </CatalogueListing>
    </DeskPage>
  );
}
