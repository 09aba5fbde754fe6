import { articleContentAnswer } from "~/app/lib/api/content.server";
import { articleContent } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** POST /api/article/piano/content?year=&month=&seotitle= (spec 7): guid, content and quota, access decided as the article page decides it. */
const route = apiRoute(serve(articleContent, articleContentAnswer));

export const loader = route.loader;
export const action = route.action;
