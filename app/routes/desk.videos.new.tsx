import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createVideo, videoChoices } from "~/server/desk/media";
import { videoFieldsSchema } from "~/shared/media-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { VideoFields } from "~/app/components/desk/media/VideoFields";
import * as css from "~/app/components/desk/desk.css";
import { TextField } from "~/app/components/forms/fields";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { createCatalogueRow } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";

// A new video (ADR 083): its details, then its file and captions on its files page. Its slug is
// made from the title unless given, and is fixed once made.

const loadSchema: SchemaLoader<typeof videoFieldsSchema> = () => import("~/shared/media-fields").then((m) => m.videoFieldsSchema);

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "media.edit");
  return videoChoices(await requestContext(args).db());
}

export const action = (args: ActionFunctionArgs) => createCatalogueRow(args, "video", videoFieldsSchema, createVideo);

export const meta: MetaFunction = (args) => deskMeta(args, "Add a video");

export default function DeskNewVideo() {
  const { topics, playlists } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-video", loadSchema, actionData?.result, {
    published: new Date().toISOString().slice(0, 10),
  });
  return (
    <DeskPage title="Add a video">
      <p className={css.muted}>
        <Link to="/desk/videos">All videos</Link>
      </p>
      <p>Readers see a new video at once. Its page plays its file once you upload one on its files page.</p>
      <CatalogueForm spec={spec} button="Add the video">
        <VideoFields fields={fields} topics={topics} playlists={playlists} chosen={{ subscriberOnly: false, playlists: [] }} />
        <TextField
          meta={fields.slug}
          label="Slug (optional)"
          autoComplete="off"
          hint="Lowercase letters, digits and hyphens; left empty, it is made from the title. It names the video's poster and files, so it cannot change once the video is added."
        />
      </CatalogueForm>
    </DeskPage>
  );
}
