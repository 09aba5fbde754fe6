import type { LoaderFunctionArgs } from "@remix-run/node";
import { chartPngOf, chartSvgOf } from "~/server/images/charts";
import { db } from "~/app/lib/context/db.server";
import { attachment, visualLibraryArticlePath } from "~/app/lib/store/downloads.server";
import { requireSubscription } from "~/app/lib/subscriptions/subscriber.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";

/**
 * A visual-library chart, drawn from its data, for the subscriber whose id is in the address and
 * no one else: the SVG at the article's slug, the PNG (twice the size) at the slug and ".png".
 */
export const loader = withSecurityHeaders(async function loader({ params, request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  if (params.subscriberId !== user.id) throw new Response("This download link belongs to another reader.", { status: 403 });
  const asset = params.asset ?? "";
  const png = asset.endsWith(".png");
  const slug = png ? asset.slice(0, -".png".length) : asset;
  const articleUrl = await visualLibraryArticlePath(await db(), slug);
  if (!articleUrl) throw new Response("No such chart", { status: 404 });
  await requireSubscription(requestContext({ request, context }), "chart", articleUrl);
  if (png) {
    const file = await chartPngOf(slug);
    if (!file) throw new Response("No such chart", { status: 404 });
    return attachment(new Uint8Array(file), "image/png", `${slug}.png`);
  }
  const svg = chartSvgOf(slug);
  if (!svg) throw new Response("No such chart", { status: 404 });
  return attachment(svg, "image/svg+xml", `${slug}.svg`);
});
