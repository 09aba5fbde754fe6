import { forgotPasswordFlow } from "~/app/lib/accounts/flows.server";
import { RESET_SENT } from "~/app/lib/accounts/messages";
import { accountProblem } from "~/app/lib/api/account-problem.server";
import { forgotPassword } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /service/user/forgot-password (spec: email): the forgot-password page's flow. */
const route = apiRoute(
  serve(forgotPassword, async ({ request, context, body }) => {
    const problem = await forgotPasswordFlow(request, context, { emailAddress: body.email, reCaptchaToken: body.reCaptchaToken });
    return problem ? accountProblem(problem, { emailAddress: "email" }) : apiJson({ message: RESET_SENT });
  }),
);

export const loader = route.loader;
export const action = route.action;
