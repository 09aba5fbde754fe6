import { keyActor } from "~/server/desk/api-keys";
import { createApiReadingList, listApiReadingLists } from "~/server/desk/api-reading-lists";
import { createReadingList, listReadingLists } from "~/app/lib/api/groups/admin-reading-lists";
import { apiJson, apiRoute, invalidFields, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and POST /desk/api/reading-lists (the Admin API). */
const route = apiRoute(
  serve(listReadingLists, async ({ request, context }) => {
    const db = await requestContext({ request, context }).db();
    return apiJson({ items: await listApiReadingLists(db, config().siteUrl) });
  }),
  serve(createReadingList, async ({ request, context, body, key }) => {
    const db = await requestContext({ request, context }).db();
    const made = await createApiReadingList(db, keyActor(key), body, config().siteUrl, new Date());
    if (made.ok) return apiJson(made.list, { status: 201 });
    if (made.reason === "invalid") return invalidFields(made.fieldErrors);
    throw new Error(`a new reading list answered ${made.reason}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
