import { topicDelete, topicList } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** GET /service/topic (the topics the reader follows) and DELETE /service/topic (stops following one, by name). */
const route = apiRoute(serve(topicList, handlers.topicList), serve(topicDelete, handlers.topicDelete));

export const loader = route.loader;
export const action = route.action;
