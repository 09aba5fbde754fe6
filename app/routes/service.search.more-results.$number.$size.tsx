import { searchAnswer } from "~/app/lib/api/content.server";
import { searchMoreResults } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/search/more-results/{number}/{size}?q= (spec 7): search's "more results", store links with its referral code. */
const route = apiRoute(serve(searchMoreResults, (call) => searchAnswer(call, true)));

export const loader = route.loader;
export const action = route.action;
