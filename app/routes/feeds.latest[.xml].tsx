import { latestFeed } from "~/server/content/feeds";
import { config, db } from "~/app/lib/db.server";
import { rssResponse, withSecurityHeaders } from "~/app/lib/responses.server";
import { SITE_NAME } from "~/app/lib/site";

export const loader = withSecurityHeaders(async function loader() {
  return rssResponse(await latestFeed(await db(), config().siteUrl, SITE_NAME));
});
