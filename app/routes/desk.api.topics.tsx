import { createTopic, listDeskTopics } from "~/server/desk/catalogue/topics";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiTopic, keyEditor, savedAnswer } from "~/app/lib/api/admin-catalogue.server";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and POST /desk/api/topics (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.listTopics, async ({ request, context, query }) => {
    const page = query.page ?? 1;
    const found = await listDeskTopics(await requestContext({ request, context }).db(), {
      q: query.q || undefined,
      page,
      pageSize: ADMIN_PAGE_SIZE,
    });
    return apiJson({
      page,
      pageSize: ADMIN_PAGE_SIZE,
      total: found.total,
      items: found.items.map((topic) => ({ ...apiTopic(topic), articles: topic.articles })),
    });
  }),
  serve(endpoints.createTopic, async ({ request, context, body, key }) => {
    const made = await createTopic(await requestContext({ request, context }).db(), keyEditor(key), body, new Date());
    return savedAnswer(made, "topic", apiTopic, (topic) => `/desk/api/topics/${topic.id}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
