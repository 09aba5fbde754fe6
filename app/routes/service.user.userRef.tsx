import { userRef } from "../lib/api/groups/subscriber";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/subscriber.server";

/** GET /service/user/userRef (spec): the reader's references for the payment provider and analytics. */
const route = apiRoute(serve(userRef, handlers.userRef));

export const loader = route.loader;
export const action = route.action;
