import { unsubscribeAll } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** DELETE /service/user/unsubscribe/all (spec): leaves every newsletter. */
const route = apiRoute(serve(unsubscribeAll, handlers.unsubscribeAll));

export const loader = route.loader;
export const action = route.action;
