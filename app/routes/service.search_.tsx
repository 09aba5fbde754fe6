import { searchPostAnswer } from "~/app/lib/api/content.server";
import { searchPost } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /service/search (spec 7: queryString, filters, sort, order). (Not the parent of search/auto-suggest and the search streams.) */
const route = apiRoute(serve(searchPost, searchPostAnswer));

export const loader = route.loader;
export const action = route.action;
