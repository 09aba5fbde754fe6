import { suggest } from "~/server/search";
import { normaliseQuery } from "~/shared/search-query";
import { apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { autoSuggest } from "~/app/lib/api/groups/lookups";
import { db } from "~/app/lib/context/db.server";

/**
 * GET /service/search/auto-suggest?term= (spec 7): up to 6 records (title, link, contentType)
 * and 3 subjects for what a reader has typed. Titles and topic names are public, so the answer
 * is the same for everyone and browsers may keep it for a minute.
 */
const route = apiRoute(
  serve(autoSuggest, async ({ query }) =>
    apiJson(await suggest(await db(), normaliseQuery(query.term ?? null)), { headers: { "Cache-Control": "public, max-age=60" } }),
  ),
);

export const loader = route.loader;
export const action = route.action;
