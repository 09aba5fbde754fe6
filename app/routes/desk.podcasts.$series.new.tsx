import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { createEpisode, podcastSeriesBySlug } from "~/server/desk/media";
import { episodeFieldsSchema } from "~/shared/media-fields";
import { CatalogueForm } from "~/app/components/desk/CatalogueEditor";
import { DeskPage } from "~/app/components/desk/DeskPage";
import { EpisodeFields } from "~/app/components/desk/media/EpisodeFields";
import * as css from "~/app/components/desk/desk.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskEditor } from "~/app/lib/desk/catalogue.server";
import { deskMeta } from "~/app/lib/desk/meta";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";

// A new episode of a series (ADR 083): its details, then its audio on its audio page.

const loadSchema: SchemaLoader<typeof episodeFieldsSchema> = () => import("~/shared/media-fields").then((m) => m.episodeFieldsSchema);

async function seriesOf(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const series = await podcastSeriesBySlug(await requestContext(args).db(), args.params.series ?? "");
  return series ?? notFound();
}

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "media.edit");
  const series = await seriesOf(args);
  const last = await requestContext(args)
    .db()
    .then((db) =>
      db
        .selectFrom("podcast_episode")
        .select(["season", "episode"])
        .where("series_id", "=", series.id)
        .orderBy("season", "desc")
        .orderBy("episode", "desc")
        .executeTakeFirst(),
    );
  return { series, next: { season: last?.season ?? 1, episode: (last?.episode ?? 0) + 1 } };
}

export async function action(args: ActionFunctionArgs) {
  const staff = await requireDesk(args, "media.edit");
  const series = await seriesOf(args);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: episodeFieldsSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const made = await createEpisode(await requestContext(args).db(), deskEditor(staff), series, submission.value, new Date());
  if (!made.ok) return rejectForm(submission, { fieldErrors: made.reason === "invalid" ? made.fields : {} }, 422);
  return redirect(`/desk/podcasts/${series.slug}/${made.value.id}?saved=created`, 303);
}

export const meta: MetaFunction<typeof loader> = (args) =>
  deskMeta(args, args.data ? `Add an episode: ${args.data.series.title}` : "Add an episode");

export default function DeskNewEpisode() {
  const { series, next } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { fields, ...spec } = useSpecForm("new-episode", loadSchema, actionData?.result, {
    pubDate: new Date().toISOString().slice(0, 10),
    season: String(next.season),
    episode: String(next.episode),
    episodeType: "full",
  });
  return (
    <DeskPage title={`Add an episode: ${series.title}`}>
      <p className={css.muted}>
        <Link to={`/desk/podcasts/${series.slug}`}>All episodes</Link>
      </p>
      <p>Readers and podcast apps see a new episode at once. It plays its audio once you upload an MP3 on its audio page.</p>
      <CatalogueForm spec={spec} button="Add the episode">
        <EpisodeFields fields={fields} />
      </CatalogueForm>
    </DeskPage>
  );
}
