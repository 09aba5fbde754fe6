import { campaignSubscribe, campaignUnsubscribe } from "~/app/lib/api/groups/library";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import { subscription } from "~/app/lib/api/library.server";

/** POST/DELETE /service/user/marketingcampaign/subscribe (spec): a marketing campaign's e-mail. */
const handle = subscription("campaign");
const route = apiRoute(serve(campaignSubscribe, handle), serve(campaignUnsubscribe, handle));

export const loader = route.loader;
export const action = route.action;
