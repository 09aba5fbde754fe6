import { signInFlow } from "~/app/lib/accounts/flows.server";
import { authenticate } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { accountProblem } from "~/app/lib/api/account-problem.server";

/** POST /authenticate (spec): the sign-in page's flow, answered in JSON. */
const route = apiRoute(
  serve(authenticate, async ({ request, context, body }) => {
    const outcome = await signInFlow(request, context, body);
    if (!outcome.ok) return accountProblem(outcome.problem);
    const { user } = outcome;
    return apiJson(
      { id: user.id, name: `${user.firstName} ${user.lastName}`, email: user.email },
      { headers: { "Set-Cookie": outcome.setCookie } },
    );
  }),
);

export const loader = route.loader;
export const action = route.action;
