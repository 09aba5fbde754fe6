import { listApiArticles } from "~/server/desk/api-articles";
import { ADMIN_PAGE_SIZE, listArticles } from "~/app/lib/api/groups/admin";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { config } from "~/app/lib/context/db.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** GET /desk/api/articles (the Admin API, ADR 074). */
const route = apiRoute(
  serve(listArticles, async ({ request, context, query }) => {
    const page = query.page ?? 1;
    const found = await listApiArticles(
      await requestContext({ request, context }).db(),
      { status: query.status, q: query.q || undefined, page, pageSize: ADMIN_PAGE_SIZE },
      config().siteUrl,
    );
    return apiJson({ page, pageSize: ADMIN_PAGE_SIZE, ...found });
  }),
);

export const loader = route.loader;
export const action = route.action;
