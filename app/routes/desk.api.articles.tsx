import { listApiArticles } from "~/server/desk/api-articles";
import { createArticle as create } from "~/server/desk/articles";
import { keyActor } from "~/server/desk/api-keys";
import { ADMIN_PAGE_SIZE, createArticle, listArticles } from "~/app/lib/api/groups/admin";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { articleAnswer, deskDb, fieldErrors } from "~/app/lib/api/admin-articles.server";
import { config } from "~/app/lib/context/db.server";

/** GET and POST /desk/api/articles (the Admin API, ADR 074). */
const route = apiRoute(
  serve(listArticles, async (call) => {
    const { query } = call;
    const page = query.page ?? 1;
    const found = await listApiArticles(
      await deskDb(call),
      { status: query.status, q: query.q || undefined, page, pageSize: ADMIN_PAGE_SIZE },
      config().siteUrl,
    );
    return apiJson({ page, pageSize: ADMIN_PAGE_SIZE, ...found });
  }),
  serve(createArticle, async (call) => {
    const made = await create(await deskDb(call), keyActor(call.key), call.body, new Date());
    if (!made.ok) return fieldErrors(made.fieldErrors);
    return articleAnswer(made.article, { status: 201, headers: { Location: `/desk/api/articles/${made.article.id}` } });
  }),
);

export const loader = route.loader;
export const action = route.action;
