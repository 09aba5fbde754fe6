import { publishArticle as publish } from "~/server/desk/articles";
import { keyActor } from "~/server/desk/api-keys";
import { publishArticle } from "~/app/lib/api/groups/admin";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { deskDb, resultAnswer } from "~/app/lib/api/admin-articles.server";

/** POST /desk/api/articles/{id}/publish (the Admin API, ADR 074): now, or at a time. */
const route = apiRoute(
  serve(publishArticle, async (call) => {
    const at = call.body.at === undefined ? undefined : new Date(call.body.at);
    return resultAnswer(await publish(await deskDb(call), keyActor(call.key), call.params.id, { at }, new Date()));
  }),
);

export const loader = route.loader;
export const action = route.action;
