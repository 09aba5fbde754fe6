import type { LoaderFunctionArgs } from "@remix-run/node";
import { personalDataJson } from "~/server/privacy/export";
import { requireUser } from "~/app/lib/context/request-context.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";
import { ownData } from "~/app/lib/privacy/account.server";
import { attachment } from "~/app/lib/store/downloads.server";

/** "Download my data" as a file (ADR 089): the signed-in reader's data as JSON, never kept by a browser or proxy. */
export const loader = withSecurityHeaders(async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const data = await ownData(user);
  return attachment(personalDataJson(data), "application/json; charset=utf-8", `meridian-review-data-${data.exportedAt.slice(0, 10)}.json`);
});
