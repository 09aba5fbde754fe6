import { libraryAnswer } from "../lib/api/content.server";
import { folderStream } from "../lib/api/groups/content";
import { apiRoute, serve } from "../lib/api/handler.server";

/** GET /service/user/list/{id}/{number}/{size} (spec 7): one of the reader's own folders. (Not nested under user/list.) */
const route = apiRoute(
  serve(folderStream, ({ request, params, user }) => libraryAnswer(request, user.id, params.id, params.number, params.size)),
);

export const loader = route.loader;
export const action = route.action;
