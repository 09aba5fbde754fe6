import { transactionComplete } from "~/app/lib/api/groups/subscriber";
import { apiRoute, serve } from "~/app/lib/api/handler.server";
import * as handlers from "~/app/lib/api/subscriber.server";

/** GET /api/digitaldata/piano/transactionComplete?uid= (spec): a completed purchase's analytics data. */
const route = apiRoute(serve(transactionComplete, handlers.transactionComplete));

export const loader = route.loader;
export const action = route.action;
