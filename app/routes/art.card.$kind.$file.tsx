import type { LoaderFunctionArgs } from "@remix-run/node";
import { socialCardFor } from "~/server/images/social-cards";
import { SOCIAL_CARD_KINDS, type SocialCardKind } from "~/shared/social-cards";
import { db } from "~/app/lib/context/db.server";
import { pngResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

/** A page's social card (its og:image): a 1200 × 630 PNG. */
export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const kind = SOCIAL_CARD_KINDS.find((k) => k === params.kind) as SocialCardKind | undefined;
  const key = /^([A-Za-z0-9-]{1,120})\.png$/.exec(params.file ?? "")?.[1];
  const png = kind && key ? await socialCardFor(await db(), kind, key) : undefined;
  if (!png) throw new Response("Not found", { status: 404 });
  return pngResponse(png);
});
