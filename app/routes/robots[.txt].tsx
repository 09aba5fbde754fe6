import { robotsTxt } from "../../server/feeds";
import { config } from "../lib/db.server";
import { textResponse, withSecurityHeaders } from "../lib/responses.server";

export const loader = withSecurityHeaders(function loader() {
  return textResponse(robotsTxt(config().siteUrl));
});
