import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { imageStorage } from "~/server/adapters/image-storage";
import { getDeskEpisode, podcastSeriesBySlug, uploadEpisodeAudio } from "~/server/desk/media";
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

// An episode's audio (ADR 083): an MP3, judged by its bytes, its length read from it, kept where
// every instance reads it, and in place of the seed's file or an earlier upload at once; the
// series' feed gives its size and type within seconds.

const UPLOADED = "The audio is uploaded: listeners and the feed get it now.";

function episodeId(param: string | undefined): number {
  return /^[1-9]\d{0,8}$/.test(param ?? "") ? Number(param) : notFound();
}

export async function loader(args: LoaderFunctionArgs) {
  const staff = await requireDesk(args, "media.edit");
  const episode = await getDeskEpisode(await requestContext(args).db(), args.params.series ?? "", episodeId(args.params.id));
  if (!episode) notFound();
  const { flash, setCookie } = await takeDeskFlash(args.request, staff.user.id);
  return data(
    {
      episode: { id: episode.id, title: episode.title, series: episode.series, path: episode.path },
      audio: fileNow(episode.audio, {
        seed: "Listeners get the seed content's MP3 for this episode.",
        none: "No audio yet: the episode's player and its feed entry have nothing to play.",
      }),
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "media.edit");
  const id = episodeId(args.params.id);
  const database = await requestContext(args).db();
  const series = await podcastSeriesBySlug(database, args.params.series ?? "");
  // An unknown episode stores nothing.
  if (!series || !(await getDeskEpisode(database, series.slug, id))) notFound();
  const form = await readMediaForm(
    args.request,
    (intent) => (intent === "audio" ? "audio" : undefined),
    (_, file) => uploadEpisodeAudio(database, imageStorage(), deskEditor(staff), series, id, file, new Date()),
  );
  if (!form.ok) return data({ error: form.message }, { status: form.status });
  if (!form.stored.ok) {
    if (form.stored.reason === "not-found") notFound();
    return data({ error: form.stored.message }, { status: refusalStatus(form.stored.reason) });
  }
  const setCookie = await setDeskFlash(staff.user.id, { kind: "notice", message: UPLOADED });
  return redirect(`/desk/podcasts/${series.slug}/${id}/audio`, { status: 303, headers: { "Set-Cookie": setCookie } });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Audio: ${args.data.episode.title}` : "Episode audio");

export default function DeskEpisodeAudio() {
  const { episode, audio, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const base = `/desk/podcasts/${episode.series.slug}`;
  return (
    <DeskPage title={`Audio: ${episode.title}`}>
      <p className={css.muted}>
        <Link to={base}>{episode.series.title}</Link> · <Link to={`${base}/${episode.id}`}>The episode&apos;s details</Link> ·{" "}
        <a href={episode.path}>its page</a>
      </p>
      {notice ? (
        <p className={forms.success} role="status">
          {notice}
        </p>
      ) : null}
      <MediaUpload
        intent="audio"
        title="Audio"
        label="MP3 file"
        accept={MEDIA_ACCEPT.audio}
        rules={`${MEDIA_RULES.audio} Its length becomes the episode's.`}
        now={audio}
        error={actionData?.error ?? null}
      />
    </DeskPage>
  );
}
