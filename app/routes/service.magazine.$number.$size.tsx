import { magazineAnswer } from "../lib/api/content.server";
import { magazineStream } from "../lib/api/groups/content";
import { apiRoute, serve } from "../lib/api/handler.server";

/** GET /service/magazine/{number}/{size}?format=json (spec 7): the magazine's issues, newest first, as the archive lists them. */
const route = apiRoute(serve(magazineStream, magazineAnswer));

export const loader = route.loader;
export const action = route.action;
