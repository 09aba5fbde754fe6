import { patchedFields } from "~/server/desk/api-articles";
import { getDeskArticle, saveArticle } from "~/server/desk/articles";
import { keyActor } from "~/server/desk/api-keys";
import { getArticle, patchArticle } from "~/app/lib/api/groups/admin";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { articleAnswer, articleNotFound, deskDb, resultAnswer } from "~/app/lib/api/admin-articles.server";

/** GET and PATCH /desk/api/articles/{id} (the Admin API, ADR 074). */
const route = apiRoute(
  serve(getArticle, async (call) => {
    const article = await getDeskArticle(await deskDb(call), call.params.id);
    return article ? articleAnswer(article) : articleNotFound();
  }),
  serve(patchArticle, async (call) => {
    const db = await deskDb(call);
    const { version, ...patch } = call.body;
    const current = await getDeskArticle(db, call.params.id);
    if (!current) return articleNotFound();
    // The fields left out are taken as the version the caller read has them; the domain then
    // refuses the save if that is not the version there is.
    const saved = await saveArticle(db, keyActor(call.key), current.id, version, patchedFields(current, patch), new Date());
    return resultAnswer(saved);
  }),
);

export const loader = route.loader;
export const action = route.action;
