import { userRef } from "~/app/lib/api/groups/subscriber";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/subscriber.server";

/** GET /service/user/userRef (spec): the reader's references for the payment provider and analytics. */
const route = apiRoute(serve(userRef, handlers.userRef));

export const loader = route.loader;
export const action = route.action;
