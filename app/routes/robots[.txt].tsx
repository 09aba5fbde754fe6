import { robotsTxt } from "~/server/content/feeds";
import { config } from "~/app/lib/db.server";
import { textResponse, withSecurityHeaders } from "~/app/lib/responses.server";

export const loader = withSecurityHeaders(function loader() {
  return textResponse(robotsTxt(config().siteUrl));
});
