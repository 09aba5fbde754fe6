import { unpublishArticle as unpublish } from "~/server/desk/articles";
import { keyActor } from "~/server/desk/api-keys";
import { unpublishArticle } from "~/app/lib/api/groups/admin";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { deskDb, resultAnswer } from "~/app/lib/api/admin-articles.server";

/** POST /desk/api/articles/{id}/unpublish (the Admin API, ADR 074). */
const route = apiRoute(
  serve(unpublishArticle, async (call) =>
    resultAnswer(await unpublish(await deskDb(call), keyActor(call.key), call.params.id, new Date())),
  ),
);

export const loader = route.loader;
export const action = route.action;
