import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, withSecurityHeaders } from "~/app/lib/http/responses.server";
import { videoById } from "~/server/content/videos";
import { db } from "~/app/lib/context/db.server";

/** The plain video path: a numeric id, moved to the video's own address (the query goes along). */
export const loader = withSecurityHeaders(async function loader({ params, request }: LoaderFunctionArgs) {
  const video = /^\d{1,9}$/.test(params.id ?? "") ? await videoById(await db(), Number(params.id)) : undefined;
  if (!video) throw new Response(null, { status: 404 });
  throw redirect(`${video.url}${new URL(request.url).search}`, 301);
});
