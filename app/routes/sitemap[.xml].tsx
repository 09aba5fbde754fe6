import { sitemapIndex } from "~/server/content/feeds";
import { config, db } from "~/app/lib/context/db.server";
import { withSecurityHeaders, xmlResponse } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(async function loader() {
  return xmlResponse(await sitemapIndex(await db(), config().siteUrl));
});
