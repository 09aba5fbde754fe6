import { apiNewslettersSubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { subscription } from "~/app/lib/api/library.server";

/** POST /api/newsletters/subscribe (spec): the twin of /service/newsletters/subscribe, with its handler. */
const route = apiRoute(serve(apiNewslettersSubscribe, subscription("newsletter")));

export const loader = route.loader;
export const action = route.action;
