import { listUrl } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/library.server";

/** GET /service/user/list/url/{id} (spec, "reads listurl"): the address of one of the reader's folders. */
const route = apiRoute(serve(listUrl, handlers.listUrl));

export const loader = route.loader;
export const action = route.action;
