import { namedStreamAnswer } from "~/app/lib/api/content.server";
import { namedStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/{stream}/{number}/{size}?format=json (spec 7): a page of a named stream (latest, webinars, visual-library, ...). */
const route = apiRoute(serve(namedStream, namedStreamAnswer));

export const loader = route.loader;
export const action = route.action;
