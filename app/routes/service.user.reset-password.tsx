import { resetPasswordFlow } from "~/app/lib/accounts/flows.server";
import { PASSWORD_CHANGED } from "~/app/lib/accounts/messages";
import { accountProblem } from "~/app/lib/api/account-problem.server";
import { resetPassword } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /service/user/reset-password (spec: password, token): the reset-password page's flow. */
const route = apiRoute(
  serve(resetPassword, async ({ request, context, body }) => {
    const outcome = await resetPasswordFlow(request, context, body);
    if (!outcome.ok) return accountProblem(outcome.problem);
    return apiJson({ message: PASSWORD_CHANGED }, { headers: { "Set-Cookie": outcome.setCookie } });
  }),
);

export const loader = route.loader;
export const action = route.action;
