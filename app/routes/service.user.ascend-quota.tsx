import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { ascendQuota } from "~/app/lib/api/groups/meters";
import { requestContext } from "~/app/lib/context/request-context.server";
import { quotaResponse } from "~/app/lib/paywall/quota.server";

/** GET /service/user/ascend-quota (spec): a guest's Ascend meter, {limit, count, remaining, metered}. */
const route = apiRoute(serve(ascendQuota, ({ request, context }) => quotaResponse(requestContext({ request, context }), "ascend")));

export const loader = route.loader;
export const action = route.action;
