import { followDelete, followPost } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { follow } from "~/app/lib/api/library.server";

/** POST/DELETE /service/user/follow (spec): follows or stops following a topic, newsletter or marketing campaign. */
const route = apiRoute(serve(followPost, follow), serve(followDelete, follow));

export const loader = route.loader;
export const action = route.action;
