import type { LoaderFunctionArgs } from "@remix-run/node";
import { openApiDocument } from "~/app/lib/api/openapi.server";
import { config } from "~/app/lib/context/db.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { SITE_NAME } from "~/app/lib/forms/cross-site";

/** GET /api/openapi.json: the service API's OpenAPI 3.1 document. */
export const loader = withSecurityHeaders((_: LoaderFunctionArgs) =>
  Promise.resolve(Response.json(openApiDocument(config().siteUrl, SITE_NAME), { headers: { "Cache-Control": "public, max-age=3600" } })),
);
