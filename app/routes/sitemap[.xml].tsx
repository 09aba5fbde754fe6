import { sitemapIndex } from "../../server/feeds";
import { config, db } from "../lib/db.server";
import { withSecurityHeaders, xmlResponse } from "../lib/responses.server";

export const loader = withSecurityHeaders(async function loader() {
  return xmlResponse(await sitemapIndex(await db(), config().siteUrl));
});
