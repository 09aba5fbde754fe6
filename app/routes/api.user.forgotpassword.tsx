import { forgotPasswordFlow } from "../lib/account-flows.server";
import { RESET_SENT } from "../lib/account-messages";
import { accountProblem } from "../lib/api/account-problem.server";
import { forgotPasswordApi } from "../lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "../lib/api/handler.server";

/** POST /api/user/forgotpassword (spec: emailAddress, reCaptchaToken, deviceType): the forgot-password page's flow. */
const route = apiRoute(
  serve(forgotPasswordApi, async ({ request, context, body }) => {
    const problem = await forgotPasswordFlow(request, context, body);
    return problem ? accountProblem(problem) : apiJson({ message: RESET_SENT });
  }),
);

export const loader = route.loader;
export const action = route.action;
