import { articleComponentAnswer } from "~/app/lib/api/content.server";
import { articleComponent } from "~/app/lib/api/groups/content";
import { apiRoute, serve } from "~/app/lib/api/handler.server";

/** GET /service/components/article/{year}/{month}/{seo} (spec 7): the article as the caller may read it, access decided as the page decides it. */
const route = apiRoute(serve(articleComponent, articleComponentAnswer));

export const loader = route.loader;
export const action = route.action;
