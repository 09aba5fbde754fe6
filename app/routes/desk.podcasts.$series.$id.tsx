import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getDeskEpisode, podcastSeriesBySlug, updateEpisode, type DeskEpisode } from "~/server/desk/media";
import { mayAct } from "~/server/desk/roles";
import { episodeEditSchema } from "~/shared/media-fields";
import { durationText, EPISODE_TYPE_NAMES } from "~/shared/media-vocabulary";
import { CatalogueEditor } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { RowFacts } from "~/app/components/desk/RowFacts";
import { EpisodeFields } from "~/app/components/desk/media/EpisodeFields";
import * as css from "~/app/components/desk/desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireAction, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor, staleMessage, type SavedVersion } from "~/app/lib/desk/catalogue.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// One podcast episode (ADR 083): its details. The form carries the version it was opened at; a
// stale save is refused as a video's is, with both versions shown. Its audio is on its audio page.

const loadSchema: SchemaLoader<typeof episodeEditSchema> = () => import("~/shared/media-fields").then((m) => m.episodeEditSchema);

const SAVED = {
  created: "Episode added. Upload its audio on its audio page.",
  saved: "Saved.",
  unchanged: "Nothing had changed, so nothing was saved.",
} as const;

const episodeId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

export async function loader(args: LoaderFunctionArgs) {
  const staff = await requireDesk(args, "media.list");
  const id = episodeId(args.params.id);
  const episode = id === null ? undefined : await getDeskEpisode(await requestContext(args).db(), args.params.series ?? "", id);
  if (!episode) notFound();
  const saved = new URL(args.request.url).searchParams.get("saved");
  return {
    episode: { ...episode, updatedAt: episode.updatedAt && deskTime(episode.updatedAt) },
    mayEdit: mayAct(staff.roles, "media.edit"),
    saved: saved && Object.hasOwn(SAVED, saved) ? SAVED[saved as keyof typeof SAVED] : null,
  };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "media.list");
  requireAction(staff, "media.edit");
  const form = await readForm(args.request);
  const id = episodeId(args.params.id);
  const database = await requestContext(args).db();
  const series = id === null ? undefined : await podcastSeriesBySlug(database, args.params.series ?? "");
  if (!series || id === null) notFound();
  const submission = parseWithZod(form, { schema: episodeEditSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const result = await updateEpisode(database, deskEditor(staff), series, id, submission.value, new Date());
  if (result.ok) return redirect(`/desk/podcasts/${series.slug}/${id}?saved=${result.changed ? "saved" : "unchanged"}`, 303);
  if (result.reason === "not-found") notFound();
  if (result.reason === "invalid") return rejectForm(submission, { fieldErrors: result.fields }, 422);
  return rejectForm(submission, { formErrors: [staleMessage(result.current, "podcast episode")] }, 409, {
    saved: savedVersion(result.current),
  });
}

const savedVersion = (episode: DeskEpisode): SavedVersion => ({
  version: episode.version,
  facts: [
    ["Title", episode.title],
    ["Description", episode.description],
    ["Publication date", episode.pubDate],
    ["Season and number", `Season ${episode.season}, episode ${episode.episode}`],
    ["Type", EPISODE_TYPE_NAMES[episode.episodeType]],
    ["Length", durationText(episode.durationSeconds)],
  ],
});

export const meta: MetaFunction<typeof loader> = (args) => deskMeta(args, args.data ? `Episode: ${args.data.episode.title}` : "Episode");

export default function DeskEpisode() {
  const { episode, mayEdit, saved } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const stale = actionData && "saved" in actionData ? (actionData.saved as SavedVersion) : null;
  const { fields, ...spec } = useSpecForm("edit-episode", loadSchema, actionData?.result, {
    title: episode.title,
    description: episode.description,
    pubDate: episode.pubDate,
    season: String(episode.season),
    episode: String(episode.episode),
    episodeType: episode.episodeType,
    durationSeconds: durationText(episode.durationSeconds),
  });
  const base = `/desk/podcasts/${episode.series.slug}`;
  return (
    <DeskPage title={episode.title}>
      <p className={css.muted}>
        <Link to={base}>{episode.series.title}</Link> · <Link to={`${base}/${episode.id}/audio`}>Audio</Link> ·{" "}
        <a href={episode.path}>its page</a>
      </p>
      <CatalogueEditor
        noun="episode"
        saved={saved}
        mayEdit={mayEdit}
        stale={stale}
        version={episode.version}
        spec={spec}
        button="Save the episode"
        about={
          <RowFacts
            title="About this episode"
            facts={[
              ["Version", String(episode.version)],
              ["Last saved", episode.updatedAt ? `${episode.updatedAt} by ${episode.updatedBy}` : "As the seed content made it"],
            ]}
          />
        }
      >
        <EpisodeFields
          fields={fields}
          numbersNote={
            episode.audio.kind === "seed"
              ? "Its seed audio file is named by its season and number: upload its audio to renumber it."
              : undefined
          }
        />
      </CatalogueEditor>
    </DeskPage>
  );
}
