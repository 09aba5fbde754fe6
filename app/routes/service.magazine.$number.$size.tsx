import { magazineAnswer } from "~/app/lib/api/content.server";
import { magazineStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/magazine/{number}/{size}?format=json (spec 7): the magazine's issues, newest first, as the archive lists them. */
const route = apiRoute(serve(magazineStream, magazineAnswer));

export const loader = route.loader;
export const action = route.action;
