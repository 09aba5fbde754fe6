import { registerFlow } from "~/app/lib/accounts/flows.server";
import { accountProblem } from "./account-problem.server";
import type { register } from "./groups/auth-user";
import { apiJson, type Call } from "./handler.server";

// The auth-user group's handlers that more than one path serves.

/** POST /api/user/register and /service/user/register: the registration page's flow; success signs the reader in. */
export async function registerAnswer({ request, context, body }: Call<typeof register>): Promise<Response> {
  const outcome = await registerFlow(request, context, body);
  if (!outcome.ok) return accountProblem(outcome.problem);
  const { user } = outcome;
  return apiJson(
    { id: user.id, name: `${user.firstName} ${user.lastName}`, email: user.email },
    { status: 201, headers: { "Set-Cookie": outcome.setCookie } },
  );
}
