import { mindstoneUserToken } from "../lib/api/groups/learning";
import { apiRoute, serve } from "../lib/api/handler.server";
import { mindstoneTokenAnswer } from "../lib/api/learning.server";

/** GET /api/mindstone/userToken (spec 7): a subscriber's mindstoneJWT. */
const route = apiRoute(serve(mindstoneUserToken, mindstoneTokenAnswer));

export const loader = route.loader;
export const action = route.action;
