import { createVideo, getDeskVideo, listDeskVideos } from "~/server/desk/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiVideo } from "~/app/lib/api/admin-media.server";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiJson, apiRoute, savedAnswer, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and POST /desk/api/videos (the Admin API, ADR 083). */
const route = apiRoute(
  serve(endpoints.listVideos, async ({ request, context, query }) => {
    const database = await requestContext({ request, context }).db();
    const page = query.page ?? 1;
    const found = await listDeskVideos(database, { q: query.q || undefined, page, pageSize: ADMIN_PAGE_SIZE });
    const items = await Promise.all(found.items.map(async (v) => apiVideo((await getDeskVideo(database, v.id))!)));
    return apiJson({ page, pageSize: ADMIN_PAGE_SIZE, total: found.total, items });
  }),
  serve(endpoints.createVideo, async ({ request, context, body, key }) => {
    const made = await createVideo(await requestContext({ request, context }).db(), keyEditor(key), body, new Date());
    return savedAnswer(made, "video", apiVideo, (video) => `/desk/api/videos/${video.id}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
