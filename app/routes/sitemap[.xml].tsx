import { sitemapIndex } from "../../server/feeds";
import { config, db } from "../lib/db.server";
import { xmlResponse } from "../lib/responses.server";

export async function loader() {
  return xmlResponse(await sitemapIndex(await db(), config().siteUrl));
}
