import { topicDelete, topicList } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** GET /service/topic (the topics the reader follows) and DELETE /service/topic (stops following one, by name). */
const route = apiRoute(serve(topicList, handlers.topicList), serve(topicDelete, handlers.topicDelete));

export const loader = route.loader;
export const action = route.action;
