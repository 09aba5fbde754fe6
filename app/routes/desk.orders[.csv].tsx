import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { orderListCsv } from "~/server/store/fulfilment/desk-orders";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { readOrderFilter } from "~/app/lib/desk/order-filter.server";

/** The desk's order list as CSV, with the page's filter (ADR 086). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "orders.list");
  const { filter } = readOrderFilter(new URL(request.url));
  const csv = await orderListCsv(await requestContext({ request, context }).db(), filter);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireDesk({ request, context }, "orders.list");
  notFound();
}
