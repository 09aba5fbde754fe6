import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskVideo, updateVideo, videoChoices, type DeskVideo } from "~/server/desk/media";
import { mayAct } from "~/server/desk/roles";
import { videoEditSchema } from "~/shared/media-fields";
import { durationText } from "~/shared/media-vocabulary";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { VideoFields } from "~/app/components/desk/media/VideoFields";
import * as css from "~/app/components/desk/desk.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, staleMessage } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One video (ADR 083): its details and playlists. The form carries the version it was opened at;
// a save over a newer one is refused with who saved it and when, the saved version beside the
// form, and the form's own changes kept in it. Its file and captions are on its files page.

const loadSchema: SchemaLoader<typeof videoEditSchema> = () => import("~/shared/media-fields").then((m) => m.videoEditSchema);

const SAVED = { saved: "Saved.", unchanged: "Nothing had changed, so nothing was saved." } as const;

const videoId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.list");
  const id = videoId(params.id);
  const database = await requestContext({ request, context }).db();
  const video = id === null ? undefined : await getDeskVideo(database, id);
  if (!video) notFound();
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    video: { ...video, updatedAt: video.updatedAt && deskTime(video.updatedAt) },
    choices: await videoChoices(database),
    mayEdit: mayAct(staff.roles, "media.edit"),
    saved: saved && Object.hasOwn(SAVED, saved) ? SAVED[saved as keyof typeof SAVED] : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.list");
  requireAction(staff, "media.edit");
  const form = await readForm(request);
  const id = videoId(params.id);
  if (id === null) notFound();
  const submission = parseWithZod(form, { schema: videoEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await updateVideo(await requestContext({ request, context }).db(), deskEditor(staff), id, submission.value, new Date());
  if (result.ok) return redirect(`/desk/videos/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleMessage(result.current, "video")] }, 409, { saved: savedVersion(result.current) });
}

const savedVersion = (video: DeskVideo) => ({
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
  ] as [string, string][],
});

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Video: ${args.data.video.title}` : "Video");

export default function DeskVideo() {
  const { video, choices, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Only the refusal of a stale save carries the saved version.
  const stale = actionData && "saved" in actionData ? (actionData.saved as ReturnType<typeof savedVersion>) : null;
  const { form, fields, summary, submitDisabled } = useSpecForm("edit-video", loadSchema, actionData?.result, {
    title: video.title,
    description: video.description,
    topic: video.topic,
    tags: video.tags.join(", "),
    durationSeconds: durationText(video.durationSeconds),
    published: video.published,
  });
  const formError = form.errors?.[0];
  return (
    <DeskPage title={video.title}>
      <p className={css.muted}>
        <Link to="/desk/videos">All videos</Link> · slug <span className={css.code}>{video.slug}</span> (fixed) ·{" "}
        <Link to={`/desk/videos/${video.id}/files`}>File and captions</Link> · <a href={video.path}>its page</a>
      </p>
      {saved ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      <div className={css.editor}>
        {mayEdit ? (
          <section aria-labelledby="edit-heading">
            <h2 id="edit-heading" className="visually-hidden">
              Edit the video
            </h2>
            <ErrorSummary items={summary} />
            <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
              {/* After a refused save, the version now saved: saving again replaces it, knowingly. */}
              <input type="hidden" name="version" value={stale?.version ?? video.version} />
              {formError ? (
                <p className={forms.formMessage} id={form.errorId}>
                  {formError}
                </p>
              ) : null}
              <VideoFields fields={fields} topics={choices.topics} playlists={choices.playlists} chosen={video} />
              <div className={forms.actions}>
                <button type="submit" className={primaryButton} disabled={submitDisabled}>
                  Save the video
                </button>
              </div>
            </Form>
          </section>
        ) : null}
        {stale ? (
          <RowFacts title={`Saved since you opened it (version ${stale.version})`} facts={stale.facts} />
        ) : (
          <RowFacts
            title="About this video"
            facts={[
              ["Version", String(video.version)],
              ["Last saved", video.updatedAt ? `${video.updatedAt} by ${video.updatedBy}` : "As the seed content made it"],
            ]}
          />
        )}
      </div>
    </DeskPage>
  );
}
