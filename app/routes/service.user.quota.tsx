import type { LoaderFunctionArgs } from "@remix-run/node";
import { quotaResponse } from "../lib/quota.server";

/** GET /service/user/quota (spec): the reader's article meter, {limit, count, remaining}. */
export const loader = ({ request }: LoaderFunctionArgs) => quotaResponse(request, "article");
