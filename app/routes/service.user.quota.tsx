import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { quota } from "~/app/lib/api/groups/meters";
import { requestContext } from "~/app/lib/context/request-context.server";
import { quotaResponse } from "~/app/lib/paywall/quota.server";

/** GET /service/user/quota (spec): the reader's article meter, {limit, count, remaining, metered}. */
const route = apiRoute(serve(quota, ({ request, context }) => quotaResponse(requestContext({ request, context }), "article")));

export const loader = route.loader;
export const action = route.action;
