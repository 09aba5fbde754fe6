import { newslettersSubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { subscription } from "~/app/lib/api/library.server";

/** POST /service/newsletters/subscribe (spec): subscribes the signed-in reader to a newsletter. */
const route = apiRoute(serve(newslettersSubscribe, subscription("newsletter")));

export const loader = route.loader;
export const action = route.action;
