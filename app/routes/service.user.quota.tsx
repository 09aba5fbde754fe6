import type { LoaderFunctionArgs } from "@remix-run/node";
import { quotaResponse } from "../lib/quota.server";
import { withSecurityHeaders } from "../lib/responses.server";

/** GET /service/user/quota (spec): the reader's article meter, {limit, count, remaining}. */
export const loader = withSecurityHeaders(({ request }: LoaderFunctionArgs) => quotaResponse(request, "article"));
