import { apiCampaignSubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { subscription } from "~/app/lib/api/library.server";

/** POST /api/marketingcampaign/subscribe (spec): the twin of /service/user/marketingcampaign/subscribe, with its handler. */
const route = apiRoute(serve(apiCampaignSubscribe, subscription("campaign")));

export const loader = route.loader;
export const action = route.action;
