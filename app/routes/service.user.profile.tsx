import { findUserById } from "~/server/accounts/users";
import { saveProfileFlow, userProfile } from "~/app/lib/accounts/flows.server";
import { accountProblem } from "~/app/lib/api/account-problem.server";
import { profile, profileHead, saveProfile } from "~/app/lib/api/groups/auth-user";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { requestContext } from "~/app/lib/context/request-context.server";

/** HEAD, GET and POST /service/user/profile (spec): the reader's profile, saved as my account saves it. */
const route = apiRoute(
  serve(profile, async ({ user }) => apiJson(await userProfile(user))),
  serve(profileHead, () => Promise.resolve(new Response(null, { status: 200, headers: { "Cache-Control": "private, no-store" } }))),
  serve(saveProfile, async ({ request, context, user, body }) => {
    const saved = await saveProfileFlow(request, context, user, body);
    if (!saved.ok) return accountProblem(saved.problem);
    // The profile as it now is (updateProfile changed the stored user).
    return apiJson(await userProfile((await findUserById(await requestContext({ request, context }).db(), user.id))!));
  }),
);

export const loader = route.loader;
export const action = route.action;
