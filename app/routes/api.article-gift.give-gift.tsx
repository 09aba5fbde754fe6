import { giveGiftAnswer } from "~/app/lib/api/content.server";
import { giveGift } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /api/article-gift/give-gift (url) (spec 7): a subscriber's gift link for an article, and the gifts left this month. */
const route = apiRoute(serve(giveGift, giveGiftAnswer));

export const loader = route.loader;
export const action = route.action;
