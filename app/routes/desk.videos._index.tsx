import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listDeskVideos } from "~/server/desk/media";
import { CatalogueListing } from "~/app/components/desk/CatalogueListing";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { catalogueListing, refuseListingPost } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// Videos (admins and editors, ADR 083): newest first, found by words in the title or slug, in
// pages of 25 with plain links that keep the search.

const FILE_NAMES = { upload: "Uploaded", seed: "Seed file", none: "None yet" } as const;

export const loader = (args: LoaderFunctionArgs) =>
  catalogueListing(args, "video", listDeskVideos, (v) => ({ ...v, file: FILE_NAMES[v.file] }));

export const action = (args: ActionFunctionArgs) => refuseListingPost(args, "video");

export const meta: MetaFunction = (args) => deskMeta(args, "Videos");

export default function DeskVideos() {
  const { items, mayAdd, ...listing } = useLoaderData<typeof loader>();
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
        {...listing}
        order="newest first"
        caption="Videos"
        columns={["Title", "Published", "Topic", "Who may watch", "Video file"]}
        rows={items.map((video) => ({
          key: video.id,
          cells: [
            <Link key="title" to={`/desk/videos/${video.id}`}>
              {video.title}
            </Link>,
            video.published,
            video.topic,
            video.subscriberOnly ? "Subscribers" : "Everyone",
            video.file,
          ],
        }))}
      />
    </DeskPage>
  );
}
