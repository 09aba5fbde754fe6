import { getDeskEpisode, podcastSeriesBySlug, updateEpisode } from "~/server/desk/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiEpisode } from "~/app/lib/api/admin-media.server";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiJson, apiRoute, notFoundAnswer, savedAnswer, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

const WHAT = "episode of this series";

/** GET and PATCH /desk/api/podcasts/{series}/episodes/{id} (the Admin API, ADR 083). */
const route = apiRoute(
  serve(endpoints.getEpisode, async ({ request, context, params }) => {
    const episode = await getDeskEpisode(await requestContext({ request, context }).db(), params.series, params.id);
    return episode ? apiJson(apiEpisode(episode)) : notFoundAnswer(WHAT);
  }),
  serve(endpoints.updateEpisode, async ({ request, context, params, body, key }) => {
    const database = await requestContext({ request, context }).db();
    const series = await podcastSeriesBySlug(database, params.series);
    if (!series) return notFoundAnswer(WHAT);
    return savedAnswer(await updateEpisode(database, keyEditor(key), series, params.id, body, new Date()), WHAT, apiEpisode);
  }),
);

export const loader = route.loader;
export const action = route.action;
