import { mindstoneUserToken } from "~/app/lib/api/groups/learning";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { mindstoneTokenAnswer } from "~/app/lib/api/learning.server";

/** GET /api/mindstone/userToken (spec 7): a subscriber's mindstoneJWT. */
const route = apiRoute(serve(mindstoneUserToken, mindstoneTokenAnswer));

export const loader = route.loader;
export const action = route.action;
