import { userSubscribe, userUnsubscribe } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import { subscription } from "../lib/api/library.server";

/** POST/DELETE /service/user/subscribe (spec): the signed-in reader's newsletter subscriptions. */
const handle = subscription("newsletter");
const route = apiRoute(serve(userSubscribe, handle), serve(userUnsubscribe, handle));

export const loader = route.loader;
export const action = route.action;
