import { registerFlow } from "../lib/account-flows.server";
import { accountProblem } from "../lib/api/account-problem.server";
import { register } from "../lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "../lib/api/handler.server";

/** POST /api/user/register (spec): the registration page's flow; success signs the reader in. */
const route = apiRoute(
  serve(register, async ({ request, context, body }) => {
    const outcome = await registerFlow(request, context, body);
    if (!outcome.ok) return accountProblem(outcome.problem);
    const { user } = outcome;
    return apiJson(
      { id: user.id, name: `${user.firstName} ${user.lastName}`, email: user.email },
      { status: 201, headers: { "Set-Cookie": outcome.setCookie } },
    );
  }),
);

export const loader = route.loader;
export const action = route.action;
