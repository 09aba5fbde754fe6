import { registerAnswer } from "~/app/lib/api/auth-user.server";
import { serviceRegister } from "~/app/lib/api/groups/auth-user";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /service/user/register (spec 7, user/register): the twin of /api/user/register. */
const route = apiRoute(serve(serviceRegister, registerAnswer));

export const loader = route.loader;
export const action = route.action;
