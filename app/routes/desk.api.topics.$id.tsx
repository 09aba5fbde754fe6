import { getDeskTopic, updateTopic } from "~/server/desk/catalogue/topics";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiTopic, keyEditor, notFoundAnswer, savedAnswer } from "~/app/lib/api/admin-catalogue.server";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and PATCH /desk/api/topics/{id} (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.getTopic, async ({ request, context, params }) => {
    const topic = await getDeskTopic(await requestContext({ request, context }).db(), params.id);
    return topic ? apiJson(apiTopic(topic)) : notFoundAnswer("topic");
  }),
  serve(endpoints.updateTopic, async ({ request, context, params, body, key }) => {
    const saved = await updateTopic(await requestContext({ request, context }).db(), keyEditor(key), params.id, body, new Date());
    return savedAnswer(saved, "topic", apiTopic);
  }),
);

export const loader = route.loader;
export const action = route.action;
