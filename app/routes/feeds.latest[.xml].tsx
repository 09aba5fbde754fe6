import { latestFeed } from "../../server/feeds";
import { config, db } from "../lib/db.server";
import { rssResponse, withSecurityHeaders } from "../lib/responses.server";
import { SITE_NAME } from "../lib/site";

export const loader = withSecurityHeaders(async function loader() {
  return rssResponse(await latestFeed(await db(), config().siteUrl, SITE_NAME));
});
