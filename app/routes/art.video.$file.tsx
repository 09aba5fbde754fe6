import type { LoaderFunctionArgs } from "@remix-run/node";
import { videoPoster } from "~/server/images/art";
import { videoPosterSource } from "~/server/content/videos";
import { db } from "~/app/lib/context/db.server";
import { svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([a-z0-9-]{1,120})\.svg$/.exec(params.file ?? "");
  const video = match ? await videoPosterSource(await db(), match[1]!) : undefined;
  if (!video) throw new Response("Not found", { status: 404 });
  return svgResponse(videoPoster(video));
});
