import { forgotPasswordFlow } from "~/app/lib/accounts/flows.server";
import { RESET_SENT } from "~/app/lib/accounts/messages";
import { accountProblem } from "~/app/lib/api/account-problem.server";
import { forgotPasswordApi } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /api/user/forgotpassword (spec: emailAddress, reCaptchaToken, deviceType): the forgot-password page's flow. */
const route = apiRoute(
  serve(forgotPasswordApi, async ({ request, context, body }) => {
    const problem = await forgotPasswordFlow(request, context, body);
    return problem ? accountProblem(problem) : apiJson({ message: RESET_SENT });
  }),
);

export const loader = route.loader;
export const action = route.action;
