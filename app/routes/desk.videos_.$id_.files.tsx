import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { imageStorage } from "~/server/adapters/image-storage";
import { getDeskVideo, uploadVideoFile } from "~/server/desk/media";
import { MEDIA_ACCEPT, MEDIA_RULES } from "~/shared/media-files";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { MediaUpload } from "~/app/components/desk/media/MediaUpload";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { setDeskFlash, takeDeskFlash } from "~/app/lib/desk/flash.server";
import { fileNow, readMediaForm, refusalStatus } from "~/app/lib/desk/media-upload.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { redirect } from "~/app/lib/http/responses.server";

// A video's file and captions (ADR 083): each uploaded on its own (multipart, no script needed),
// judged by its bytes, kept where every instance reads it, and in place of the seed's file or
// an earlier upload at once. Readers' pages follow within seconds.

const INTENTS = { file: "video", captions: "captions" } as const;
const UPLOADED = { file: "The video file is uploaded: readers get it now.", captions: "The captions are uploaded: readers get them now." };

function videoId(param: string | undefined): number {
  return /^[1-9]\d{0,8}$/.test(param ?? "") ? Number(param) : notFound();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.edit");
  const video = await getDeskVideo(await requestContext({ request, context }).db(), videoId(params.id));
  if (!video) notFound();
  const { flash, setCookie } = await takeDeskFlash(request, staff.user.id);
  return data(
    {
      video: { id: video.id, title: video.title, path: video.path },
      file: fileNow(video.file, {
        seed: "Readers get the seed content's WebM for this video.",
        none: "No file yet: readers see the poster and cannot play the video.",
      }),
      captions: fileNow(video.captions, {
        seed: "Readers get the seed content's captions for this video.",
        none: "No captions yet: upload them, so that everyone can follow the video.",
      }),
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const staff = await requireDesk({ request, context }, "media.edit");
  const id = videoId(params.id);
  const database = await requestContext({ request, context }).db();
  // An unknown video stores nothing.
  if (!(await getDeskVideo(database, id))) notFound();
  const form = await readMediaForm(
    request,
    (intent) => (Object.hasOwn(INTENTS, intent) ? INTENTS[intent as keyof typeof INTENTS] : undefined),
    (intent, file) =>
      uploadVideoFile(database, imageStorage(), deskEditor(staff), id, intent === "captions" ? "captions" : "file", file, new Date()),
  );
  // A refusal is shown beside the form it came from; one from no form of the page's, beside the first.
  const shownAt = (intent: string | null) => (intent === "captions" ? "captions" : "file");
  if (!form.ok) return data({ error: { intent: shownAt(form.intent), message: form.message } }, { status: form.status });
  const { stored, intent } = form;
  if (!stored.ok) {
    if (stored.reason === "not-found") notFound();
    return data({ error: { intent: shownAt(intent), message: stored.message } }, { status: refusalStatus(stored.reason) });
  }
  const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: UPLOADED[intent as keyof typeof UPLOADED] });
  return redirect(`/desk/videos/${id}/files`, { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Files: ${args.data.video.title}` : "Video files");

export default function DeskVideoFiles() {
  const { video, file, captions, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = (intent: string) => (actionData?.error.intent === intent ? actionData.error.message : null);
  return (
    <DeskPage title={`Files: ${video.title}`}>
      <p className={css.muted}>
        <Link to={`/desk/videos/${video.id}`}>The video&apos;s details</Link> · <a href={video.path}>its page</a>
      </p>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      <MediaUpload
        intent="file"
        title="The video"
        label="Video file"
        accept={MEDIA_ACCEPT.video}
        rules={`${MEDIA_RULES.video} A WebM's length becomes the video's.`}
        now={file}
        error={error("file")}
      />
      <MediaUpload
        intent="captions"
        title="Captions"
        label="Captions file"
        accept={MEDIA_ACCEPT.captions}
        rules={`${MEDIA_RULES.captions} Each cue needs a timing line such as 00:00:01.000 --> 00:00:04.000.`}
        now={captions}
        error={error("captions")}
      />
    </DeskPage>
  );
}
