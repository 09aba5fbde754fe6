import { checkoutComplete } from "~/app/lib/api/groups/subscriber";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/subscriber.server";

/** POST /api/user/subscribe/checkoutComplete (spec): completes the reader's subscription checkout, once. */
const route = apiRoute(serve(checkoutComplete, handlers.checkoutComplete));

export const loader = route.loader;
export const action = route.action;
