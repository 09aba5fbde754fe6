import { createEpisode, getDeskEpisode, listDeskEpisodes, podcastSeriesBySlug } from "~/server/desk/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiEpisode } from "~/app/lib/api/admin-media.server";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiError, apiJson, apiRoute, savedAnswer, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

const noSeries = () => apiError(404, "not_found", "No podcast series has this slug.");

/** GET and POST /desk/api/podcasts/{series}/episodes (the Admin API, ADR 083). */
const route = apiRoute(
  serve(endpoints.listEpisodes, async ({ request, context, params, query }) => {
    const database = await requestContext({ request, context }).db();
    const series = await podcastSeriesBySlug(database, params.series);
    if (!series) return noSeries();
    const page = query.page ?? 1;
    const found = await listDeskEpisodes(database, series, { q: query.q || undefined, page, pageSize: ADMIN_PAGE_SIZE });
    const items = await Promise.all(found.items.map(async (e) => apiEpisode((await getDeskEpisode(database, series.slug, e.id))!)));
    return apiJson({ page, pageSize: ADMIN_PAGE_SIZE, total: found.total, items });
  }),
  serve(endpoints.createEpisode, async ({ request, context, params, body, key }) => {
    const database = await requestContext({ request, context }).db();
    const series = await podcastSeriesBySlug(database, params.series);
    if (!series) return noSeries();
    const made = await createEpisode(database, keyEditor(key), series, body, new Date());
    return savedAnswer(made, "episode", apiEpisode, (e) => `/desk/api/podcasts/${series.slug}/episodes/${e.id}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
