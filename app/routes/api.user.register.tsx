import { registerAnswer } from "../lib/api/auth-user.server";
import { register } from "../lib/api/groups/auth-user";
import { apiRoute, serve } from "../lib/api/handler.server";

/** POST /api/user/register (spec): the registration page's flow; success signs the reader in. */
const route = apiRoute(serve(register, registerAnswer));

export const loader = route.loader;
export const action = route.action;
