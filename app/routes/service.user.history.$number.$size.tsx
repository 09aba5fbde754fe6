import { historyAnswer } from "~/app/lib/api/content.server";
import { historyStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/user/history/{number}/{size} (spec 7): the reader's reading history. */
const route = apiRoute(serve(historyStream, historyAnswer));

export const loader = route.loader;
export const action = route.action;
