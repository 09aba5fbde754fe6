import type { LoaderFunctionArgs } from "@remix-run/node";
import { suggest } from "../../server/search";
import { normaliseQuery } from "../../shared/search-query";
import { db } from "../lib/db.server";
import { withSecurityHeaders } from "../lib/responses.server";

/**
 * GET /service/search/auto-suggest?term= (spec 7): up to 6 records (title, link, contentType)
 * and 3 subjects for what a reader has typed. Titles and topic names are public, so the answer
 * is the same for everyone and browsers may keep it for a minute.
 */
export const loader = withSecurityHeaders(async ({ request }: LoaderFunctionArgs) => {
  const term = normaliseQuery(new URL(request.url).searchParams.get("term"));
  return Response.json(await suggest(await db(), term), { headers: { "Cache-Control": "public, max-age=60" } });
});
