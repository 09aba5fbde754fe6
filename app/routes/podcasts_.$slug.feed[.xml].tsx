import type { LoaderFunctionArgs } from "@remix-run/node";
import { podcastFeed } from "~/server/content/feeds";
import { config, db } from "~/app/lib/context/db.server";
import { rssResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";
import { CUSTOMER_SERVICE, SITE_NAME } from "~/app/lib/forms/cross-site";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const feed = /^[a-z0-9-]{1,120}$/.test(slug)
    ? await podcastFeed(await db(), slug, config().siteUrl, { name: SITE_NAME, email: CUSTOMER_SERVICE.email })
    : undefined;
  if (!feed) throw new Response("Not found", { status: 404 });
  return rssResponse(feed);
});
