import type { LoaderFunctionArgs } from "@remix-run/node";
import { articlesSitemap, pagesSitemap } from "~/server/content/feeds";
import { config, db } from "~/app/lib/context/db.server";
import { withSecurityHeaders, xmlResponse } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const { siteUrl } = config();
  if (params.file === "pages.xml") return xmlResponse(await pagesSitemap(await db(), siteUrl));
  const n = /^articles-([1-9]\d{0,5})\.xml$/.exec(params.file ?? "")?.[1];
  const xml = n ? await articlesSitemap(await db(), siteUrl, Number(n)) : undefined;
  if (!xml) throw new Response("Not found", { status: 404 });
  return xmlResponse(xml);
});
