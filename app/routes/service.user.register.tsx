import { registerAnswer } from "../lib/api/auth-user.server";
import { serviceRegister } from "../lib/api/groups/auth-user";
import { apiRoute, serve } from "../lib/api/handler.server";

/** POST /service/user/register (spec 7, user/register): the twin of /api/user/register. */
const route = apiRoute(serve(serviceRegister, registerAnswer));

export const loader = route.loader;
export const action = route.action;
