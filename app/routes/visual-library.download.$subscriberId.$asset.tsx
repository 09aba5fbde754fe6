import type { LoaderFunctionArgs } from "@remix-run/node";
import { articleArt } from "../../server/art";
import { db } from "../lib/db.server";
import { attachment, visualLibraryArticlePath } from "../lib/downloads.server";
import { requireUser } from "../lib/session.server";
import { requireSubscription } from "../lib/subscriber.server";
import { withSecurityHeaders } from "../lib/responses.server";

/** A visual-library chart, for the subscriber whose id is in the address and no one else. */
export const loader = withSecurityHeaders(async function loader({ params, request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (params.subscriberId !== user.id) throw new Response("This download link belongs to another reader.", { status: 403 });
  const slug = params.asset ?? "";
  const articleUrl = await visualLibraryArticlePath(await db(), slug);
  if (!articleUrl) throw new Response("No such chart", { status: 404 });
  await requireSubscription(user, "chart", articleUrl);
  return attachment(articleArt(slug), "image/svg+xml", `${slug}.svg`);
});
