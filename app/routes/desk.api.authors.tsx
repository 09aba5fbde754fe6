import { createAuthor, listAuthors } from "~/server/desk/catalogue/authors";
import { ADMIN_PAGE_SIZE } from "~/app/lib/api/groups/admin";
import * as endpoints from "~/app/lib/api/groups/admin-catalogue";
import { apiAuthor, keyEditor, savedAnswer } from "~/app/lib/api/admin-catalogue.server";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET and POST /desk/api/authors (the Admin API, ADR 078). */
const route = apiRoute(
  serve(endpoints.listAuthors, async ({ request, context, query }) => {
    const page = query.page ?? 1;
    const found = await listAuthors(await requestContext({ request, context }).db(), {
      q: query.q || undefined,
      page,
      pageSize: ADMIN_PAGE_SIZE,
    });
    return apiJson({
      page,
      pageSize: ADMIN_PAGE_SIZE,
      total: found.total,
      items: found.items.map((author) => ({ ...apiAuthor(author), articles: author.articles })),
    });
  }),
  serve(endpoints.createAuthor, async ({ request, context, body, key }) => {
    const made = await createAuthor(await requestContext({ request, context }).db(), keyEditor(key), body, new Date());
    return savedAnswer(made, "author", apiAuthor, (author) => `/desk/api/authors/${author.id}`);
  }),
);

export const loader = route.loader;
export const action = route.action;
