import type { LoaderFunctionArgs } from "@remix-run/node";
import { podcastFeed } from "../../server/feeds";
import { config, db } from "../lib/db.server";
import { rssResponse, withSecurityHeaders } from "../lib/responses.server";
import { SITE_NAME } from "../lib/site";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const feed = /^[a-z0-9-]{1,120}$/.test(slug) ? await podcastFeed(await db(), slug, config().siteUrl, SITE_NAME) : undefined;
  if (!feed) throw new Response("Not found", { status: 404 });
  return rssResponse(feed);
});
