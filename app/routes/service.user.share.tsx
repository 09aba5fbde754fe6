import { share } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** POST /service/user/share (spec): shares an item by e-mail, as the share page does. */
const route = apiRoute(serve(share, handlers.share));

export const loader = route.loader;
export const action = route.action;
