import type { LoaderFunctionArgs } from "@remix-run/node";
import { issueByCode } from "~/server/content/archive";
import { issueCover } from "~/server/images/art";
import { isIssueCode } from "~/server/content/archive-calendar";
import { db } from "~/app/lib/context/db.server";
import { svgResponse, withSecurityHeaders } from "~/app/lib/http/responses.server";

export const loader = withSecurityHeaders(async function loader({ params }: LoaderFunctionArgs) {
  const code = (params.file ?? "").replace(/\.svg$/, "");
  const issue = isIssueCode(code) ? await issueByCode(await db(), code) : undefined;
  if (!issue) throw new Response("Not found", { status: 404 });
  return svgResponse(issueCover(issue));
});
