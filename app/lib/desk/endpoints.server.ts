import type { DeskAction } from "~/server/desk/roles";
import { apiError } from "~/app/lib/api/handler.server";
import type { RequestArgs } from "~/app/lib/context/request-context.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { requireDesk } from "./access.server";

// The desk's own JSON endpoints, which the article form's enhancements call with the staff
// member's session (ADR 085): not the Admin API (ADR 074), which knows its callers by key. As
// every desk address, they answer 404 to anyone without a role, before anything else (the server
// in front of Remix makes that bare 404 the site's page: server/http/handler.ts).

/** A desk endpoint's loader or action: who asks is checked first, then `answer` runs. */
export function deskEndpoint<A extends RequestArgs & { params: Record<string, string | undefined> }>(
  action: DeskAction,
  answer: (args: A, staff: Awaited<ReturnType<typeof requireDesk>>) => Promise<Response>,
) {
  return withSecurityHeaders(async (args: A) => answer(args, await requireDesk(args, action)));
}

/** The other method's answer, for a staff member: 405, naming the one the endpoint takes. */
export const onlyMethod = (method: "GET" | "POST") => async () =>
  apiError(405, "method_not_allowed", `Only ${method} is allowed here.`, {}, { Allow: method });
