import { followingAnswer } from "~/app/lib/api/content.server";
import { followingStream } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/components/myhbr/following/{number}/{size}?filter= (spec 7): the topics the reader follows, as /my-library/topics lists them. */
const route = apiRoute(serve(followingStream, followingAnswer));

export const loader = route.loader;
export const action = route.action;
