import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { reportCsvResponse } from "~/app/lib/desk/reports.server";

/** The reports' funnel section as CSV, for the page's range (ADR 090). */
export const loader = (args: LoaderFunctionArgs) => reportCsvResponse(args, "funnel");

export async function action(args: ActionFunctionArgs) {
  await requireDesk(args, "reports.view");
  notFound();
}
