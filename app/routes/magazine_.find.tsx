import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, withSecurityHeaders } from "~/app/lib/http/responses.server";
import { archiveYears } from "~/server/content/archive";
import { db } from "~/app/lib/context/db.server";
import { pickIssueIndex, pickYear } from "~/app/lib/content/issue-finder";

// The issue finder's no-JS answer: go to the chosen issue of the chosen year.
export const loader = withSecurityHeaders(async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const archive = await archiveYears(await db());
  const year = pickYear(
    archive.map((y) => y.yearId),
    params.get("year"),
  );
  const issues = archive.find((y) => y.yearId === year)?.issues;
  if (!issues || issues.length === 0) throw new Response(null, { status: 404 });
  // The month was chosen from the list of the year on screen, which the form names.
  const shownYear = Number(params.get("shown"));
  const shown = shownYear !== year ? archive.find((y) => y.yearId === shownYear)?.issues : undefined;
  return redirect(issues[pickIssueIndex(issues, shown, params.get("month"))]!.issueURL);
});
