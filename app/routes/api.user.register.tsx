import { registerAnswer } from "~/app/lib/api/auth-user.server";
import { register } from "~/app/lib/api/groups/auth-user";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /api/user/register (spec): the registration page's flow; success signs the reader in. */
const route = apiRoute(serve(register, registerAnswer));

export const loader = route.loader;
export const action = route.action;
