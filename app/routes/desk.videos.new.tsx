import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { createVideo, videoChoices } from "~/server/desk/media";
import { videoFieldsSchema } from "~/shared/media-fields";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { VideoFields } from "~/app/components/desk/media/VideoFields";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new video (ADR 083): its details, then its file and captions on its files page. Its slug is
// made from the title unless given, and is fixed once made.

const loadSchema: SchemaLoader<typeof videoFieldsSchema> = () => import("~/shared/media-fields").then((m) => m.videoFieldsSchema);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "media.edit");
  return videoChoices(await requestContext({ request, context }).db());
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.edit");
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: videoFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createVideo(await requestContext({ request, context }).db(), deskEditor(staff), submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/videos/${made.value.id}/files?added=1`, 303);
}

export const meta: MetaFunction = (args) => deskMeta(args, "Add a video");

export default function DeskNewVideo() {
  const { topics, playlists } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("new-video", loadSchema, actionData?.result, {
    published: new Date().toISOString().slice(0, 10),
  });
  return (
    <DeskPage title="Add a video">
      <p className={css.muted}>
        <Link to="/desk/videos">All videos</Link>
      </p>
      <p>Readers see a new video at once. Its page plays its file once you upload one on the next page.</p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <VideoFields fields={fields} topics={topics} playlists={playlists} chosen={{ subscriberOnly: false, playlists: [] }} />
        <TextField
          meta={fields.slug}
          label="Slug (optional)"
          autoComplete="off"
          hint="Lowercase letters, digits and hyphens; left empty, it is made from the title. It names the video's poster and files, so it cannot change once the video is added."
        />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Add the video
          </button>
        </div>
      </Form>
    </DeskPage>
  );
}
