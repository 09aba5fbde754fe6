import { keyActor } from "~/server/desk/api-keys";
import { getApiReadingList, updateApiReadingList } from "~/server/desk/api-reading-lists";
import { getReadingList, updateReadingList } from "~/app/lib/api/groups/admin-reading-lists";
import { apiJson, apiRoute, conflictAnswer, invalidFields, notFoundAnswer, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and PATCH /desk/api/reading-lists/{id} (the Admin API): a stale version gets 409. */
const route = apiRoute(
  serve(getReadingList, async ({ request, context, params }) => {
    const list = await getApiReadingList(await requestContext({ request, context }).db(), params.id, config().siteUrl);
    return list ? apiJson(list) : notFoundAnswer("reading list");
  }),
  serve(updateReadingList, async ({ request, context, params, body, key }) => {
    const db = await requestContext({ request, context }).db();
    const saved = await updateApiReadingList(db, keyActor(key), params.id, body, config().siteUrl, new Date());
    if (saved.ok) return apiJson(saved.list);
    if (saved.reason === "missing") return notFoundAnswer("reading list");
    if (saved.reason === "invalid") return invalidFields(saved.fieldErrors);
    return conflictAnswer("reading list", saved.current, saved.by, saved.at);
  }),
);

export const loader = route.loader;
export const action = route.action;
