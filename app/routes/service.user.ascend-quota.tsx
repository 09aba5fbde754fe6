import { apiRoute, serve } from "../lib/api/handler.server";
import { ascendQuota } from "../lib/api/groups/meters";
import { quotaResponse } from "../lib/quota.server";

/** GET /service/user/ascend-quota (spec): a guest's Ascend meter, {limit, count, remaining, metered}. */
const route = apiRoute(serve(ascendQuota, ({ request }) => quotaResponse(request, "ascend")));

export const loader = route.loader;
export const action = route.action;
