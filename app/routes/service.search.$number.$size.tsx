import { searchAnswer } from "~/app/lib/api/content.server";
import { searchStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/search/{number}/{size}?q= (spec 7): search results, as /search lists them. */
const route = apiRoute(serve(searchStream, (call) => searchAnswer(call, false)));

export const loader = route.loader;
export const action = route.action;
