import { changePasswordFlow } from "~/app/lib/accounts/flows.server";
import { PASSWORD_CHANGED } from "~/app/lib/accounts/messages";
import { accountProblem } from "~/app/lib/api/account-problem.server";
import { changePassword } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /service/user/password (spec: current, password): my account's change of password. */
const route = apiRoute(
  serve(changePassword, async ({ request, context, user, body }) => {
    const problem = await changePasswordFlow(request, context, user, { currentPassword: body.current, newPassword: body.password });
    return problem ? accountProblem(problem, { currentPassword: "current" }) : apiJson({ message: PASSWORD_CHANGED });
  }),
);

export const loader = route.loader;
export const action = route.action;
