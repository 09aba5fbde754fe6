import { getDeskVideo, updateVideo } from "~/server/desk/media";
import { keyEditor } from "~/app/lib/api/admin-catalogue.server";
import { apiVideo } from "~/app/lib/api/admin-media.server";
import * as endpoints from "~/app/lib/api/groups/admin-media";
import { apiJson, apiRoute, notFoundAnswer, savedAnswer, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and PATCH /desk/api/videos/{id} (the Admin API, ADR 083). */
const route = apiRoute(
  serve(endpoints.getVideo, async ({ request, context, params }) => {
    const video = await getDeskVideo(await requestContext({ request, context }).db(), params.id);
    return video ? apiJson(apiVideo(video)) : notFoundAnswer("video");
  }),
  serve(endpoints.updateVideo, async ({ request, context, params, body, key }) => {
    const saved = await updateVideo(await requestContext({ request, context }).db(), keyEditor(key), params.id, body, new Date());
    return savedAnswer(saved, "video", apiVideo);
  }),
);

export const loader = route.loader;
export const action = route.action;
