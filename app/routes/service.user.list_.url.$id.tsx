import { listUrl } from "../lib/api/groups/library";
import { apiRoute, serve } from "../lib/api/handler.server";
import * as handlers from "../lib/api/library.server";

/** GET /service/user/list/url/{id} (spec, "reads listurl"): the address of one of the reader's folders. */
const route = apiRoute(serve(listUrl, handlers.listUrl));

export const loader = route.loader;
export const action = route.action;
