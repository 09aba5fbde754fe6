import { robotsTxt } from "../../server/feeds";
import { config } from "../lib/db.server";
import { textResponse } from "../lib/responses.server";

export function loader() {
  return textResponse(robotsTxt(config().siteUrl));
}
