import { libraryAnswer } from "~/app/lib/api/content.server";
import { folderStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/user/list/{id}/{number}/{size} (spec 7): one of the reader's own folders. (Not nested under user/list.) */
const route = apiRoute(
  serve(folderStream, ({ request, context, params, user }) =>
    libraryAnswer({ request, context }, user.id, params.id, params.number, params.size),
  ),
);

export const loader = route.loader;
export const action = route.action;
