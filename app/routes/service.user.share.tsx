import { share } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** POST /service/user/share (spec): shares an item by e-mail, as the share page does. */
const route = apiRoute(serve(share, handlers.share));

export const loader = route.loader;
export const action = route.action;
