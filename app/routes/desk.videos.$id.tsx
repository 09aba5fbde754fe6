import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskVideo, updateVideo, videoChoices, type DeskVideo } from "~/server/desk/media";
import { videoEditSchema } from "~/shared/media-fields";
import { durationText } from "~/shared/media-vocabulary";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { VideoFields } from "~/app/components/desk/media/VideoFields";
import * as css from "~/app/components/desk/desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { catalogueRow, saveCatalogueRow, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// One video (ADR 083): its details and playlists. The form carries the version it was opened at;
// a save over a newer one is refused with who saved it and when, the saved version beside the
// form, and the form's own changes kept in it. Its file and captions are on its files page.

const loadSchema: SchemaLoader<typeof videoEditSchema> = () => import("~/shared/media-fields").then((m) => m.videoEditSchema);

export async function loader(args: LoaderFunctionArgs) {
  const { row: video, db, mayEdit, saved } = await catalogueRow(args, "video", getDeskVideo);
  return {
    video: { ...video, updatedAt: video.updatedAt && deskTime(video.updatedAt) },
    choices: await videoChoices(db),
    mayEdit,
    saved,
  };
}

const savedVersion = (video: DeskVideo): SavedVersion => ({
  version: video.version,
  facts: [
    ["Title", video.title],
    ["Description", video.description],
    ["Topic", video.topic],
    ["Tags", video.tags.join(", ") || "None"],
    ["Length", durationText(video.durationSeconds)],
    ["Publication date", video.published],
    ["Who may watch", video.subscriberOnly ? "Subscribers" : "Everyone"],
    ["Playlists", video.playlists.join(", ") || "None"],
  ],
});

export const action = (args: ActionFunctionArgs) => saveCatalogueRow(args, "video", videoEditSchema, updateVideo, savedVersion);

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Video: ${args.data.video.title}` : "Video");

export default function DeskVideo() {
  const { video, choices, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-video", loadSchema, actionData?.result, {
    title: video.title,
    description: video.description,
    topic: video.topic,
    tags: video.tags.join(", "),
    durationSeconds: durationText(video.durationSeconds),
    published: video.published,
  });
  return (
    <DeskPage title={video.title}>
      <p className={css.muted}>
        <Link to="/desk/videos">All videos</Link> · slug <span className={css.code}>{video.slug}</span> (fixed) ·{" "}
        <Link to={`/desk/videos/${video.id}/files`}>File and captions</Link> · <a href={video.path}>its page</a>
      </p>
      <CatalogueEditor
        noun="video"
        saved={saved}
        mayEdit={mayEdit}
        stale={stale}
        version={video.version}
        spec={spec}
        button="Save the video"
        about={
          <RowFacts
            title="About this video"
            facts={[
              ["Version", String(video.version)],
              ["Last saved", video.updatedAt ? `${video.updatedAt} by ${video.updatedBy}` : "As the seed content made it"],
            ]}
          />
        }
      >
        <VideoFields fields={fields} topics={choices.topics} playlists={choices.playlists} chosen={video} />
      </CatalogueEditor>
    </DeskPage>
  );
}
