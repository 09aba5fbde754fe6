import { robotsTxt } from "~/server/content/feeds";
import { config } from "~/app/lib/context/db.server";
import { textResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(function loader() {
  return textResponse(robotsTxt(config().siteUrl));
});
