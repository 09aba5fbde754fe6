import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { registerAsServed, registerSubscriber } from "~/app/lib/api/subscriber.server";

/** POST /api/user/subscriber/register (spec): the subscriber registration page's flow; a header says whether it succeeded. */
const route = apiRoute(serve(registerAsServed, registerSubscriber));

export const loader = route.loader;
export const action = route.action;
