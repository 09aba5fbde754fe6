import { apiNewslettersSubscribe } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import { subscription } from "../lib/api/library.server";

/** POST /api/newsletters/subscribe (spec): the twin of /service/newsletters/subscribe, with its handler. */
const route = apiRoute(serve(apiNewslettersSubscribe, subscription("newsletter")));

export const loader = route.loader;
export const action = route.action;
