import { latestFeed } from "~/server/content/feeds";
import { config, db } from "~/app/lib/context/db.server";
import { rssResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";

export const loader = withSecurityHeaders(async function loader() {
  return rssResponse(await latestFeed(await db(), config().siteUrl, SITE_NAME));
});
