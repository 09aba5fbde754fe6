import { topicsAnswer } from "~/app/lib/api/content.server";
import { topicsStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/topics/{number}/{size}?format=json (spec 7): the topic directory, as /topics lists it. */
const route = apiRoute(serve(topicsStream, topicsAnswer));

export const loader = route.loader;
export const action = route.action;
