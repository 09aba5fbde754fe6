import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  funnelCsv,
  funnelReport,
  reportFileName,
  rollUpForReport,
  salesCsv,
  salesReport,
  subscriptionsCsv,
  subscriptionsReport,
  type ReportName,
} from "~/server/desk/reports";
import { requestContext } from "~/app/lib/context/request-context.server";
import { requireDesk } from "~/app/lib/desk/access.server";
import { readReportRange } from "~/app/lib/desk/report-range.server";

// A report section as a CSV download (ADR 090), for the routes /desk/reports/{name}.csv: the
// page's range, the same figures, as the orders' CSV is sent (ADR 086).

export async function reportCsvResponse(args: LoaderFunctionArgs, name: ReportName): Promise<Response> {
  await requireDesk(args, "reports.view");
  const now = new Date();
  const { range } = readReportRange(new URL(args.request.url), now);
  const db = await requestContext(args).db();
  await rollUpForReport(db, range, now);
  const csv =
    name === "sales"
      ? salesCsv(await salesReport(db, range))
      : name === "subscriptions"
        ? subscriptionsCsv(await subscriptionsReport(db, range, now))
        : funnelCsv(await funnelReport(db, range));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${reportFileName(name, range)}"`,
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}
