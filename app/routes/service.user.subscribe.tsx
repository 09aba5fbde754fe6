import { userSubscribe, userUnsubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { subscription } from "~/app/lib/api/library.server";

/** POST/DELETE /service/user/subscribe (spec): the signed-in reader's newsletter subscriptions. */
const handle = subscription("newsletter");
const route = apiRoute(serve(userSubscribe, handle), serve(userUnsubscribe, handle));

export const loader = route.loader;
export const action = route.action;
