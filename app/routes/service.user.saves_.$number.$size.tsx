import { libraryAnswer } from "~/app/lib/api/content.server";
import { savesStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/user/saves/{number}/{size} (spec 7): everything in the reader's library. (Not nested under user/saves.) */
const route = apiRoute(
  serve(savesStream, ({ request, context, params, user }) =>
    libraryAnswer({ request, context }, user.id, null, params.number, params.size),
  ),
);

export const loader = route.loader;
export const action = route.action;
