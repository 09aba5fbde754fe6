import { historyAnswer } from "../lib/api/content.server";
import { historyStream } from "../lib/api/groups/content";
import { apiRoute, serve } from "../lib/api/handler.server";

/** GET /service/user/history/{number}/{size} (spec 7): the reader's reading history. */
const route = apiRoute(serve(historyStream, historyAnswer));

export const loader = route.loader;
export const action = route.action;
