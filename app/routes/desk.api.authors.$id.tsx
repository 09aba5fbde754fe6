import { getAuthor, updateAuthor } from "~/server/desk/catalogue/authors";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiAuthor, keyEditor, notFoundAnswer, savedAnswer } from "~/app/lib/api/admin-catalogue.server";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and PATCH /desk/api/authors/{id} (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.getAuthor, async ({ request, context, params }) => {
    const author = await getAuthor(await requestContext({ request, context }).db(), params.id);
    return author ? apiJson(apiAuthor(author)) : notFoundAnswer("author");
  }),
  serve(endpoints.updateAuthor, async ({ request, context, params, body, key }) => {
    const saved = await updateAuthor(await requestContext({ request, context }).db(), keyEditor(key), params.id, body, new Date());
    return savedAnswer(saved, "author", apiAuthor);
  }),
);

export const loader = route.loader;
export const action = route.action;
