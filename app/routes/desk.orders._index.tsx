import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { orderListPage } from "~/server/store/fulfilment/desk-orders";
import { ORDER_FILTERS, REFUND_LABELS, STAGE_LABELS, type OrderFilter } from "~/server/store/fulfilment/lifecycle";
import { formatUsd } from "~/shared/money";
import { Pagination } from "~/app/components/Pagination";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readOrderFilter } from "~/app/lib/desk/order-filter.server";

// Store orders (ADR 086), for the store and customer service: newest first, filtered by state and
// a range of UTC days, paged with plain links that keep the filter, and exported as CSV.

const PAGE_SIZE = 25;

/** The filter as a query string (without the page), for links and the export. */
const filterQuery = (shown: Record<string, string>) => new URLSearchParams(Object.entries(shown).filter(([, value]) => value !== ""));

const FILTER_LABELS: Record<OrderFilter, string> = {
  pending: STAGE_LABELS.pending,
  paid: `${STAGE_LABELS.paid}, not dispatched`,
  fulfilled: STAGE_LABELS.fulfilled,
  delivered: STAGE_LABELS.delivered,
  cancelled: STAGE_LABELS.cancelled,
  "partly-refunded": REFUND_LABELS["partly-refunded"],
  refunded: REFUND_LABELS.refunded,
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "orders.list");
  const { filter, shown, page, problem } = readOrderFilter(new URL(request.url));
  const { rows, total } = await orderListPage(await requestContext({ request, context }).db(), filter, page, PAGE_SIZE);
  const query = filterQuery(shown).toString();
  return {
    shown,
    problem,
    states: ORDER_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] })),
    rows: rows.map((r) => ({
      number: r.number,
      placed: deskTime(r.createdAt),
      buyer: r.name ? `${r.name} (${r.email})` : r.email,
      items: r.itemCount,
      total: formatUsd(r.totalCents),
      state: [r.stage, r.refund].filter(Boolean).join(", "),
    })),
    page,
    lastPage: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    csvHref: `/desk/orders.csv${query ? `?${query}` : ""}`,
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "orders.list");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Orders");

export default function DeskOrders() {
  const { shown, problem, states, rows, page, lastPage, total, csvHref } = useLoaderData<typeof loader>();
  const href = (to: number) => {
    const query = filterQuery(shown);
    if (to > 1) query.set("page", String(to));
    const search = query.toString();
    return search ? `/desk/orders?${search}` : "/desk/orders";
  };
  return (
    <DeskPage title="Orders">
      <Form method="get" className={css.filters} aria-label="Filter the orders">
        <div className={forms.field}>
          <label className={forms.label} htmlFor="orders-state">
            State
          </label>
          <select id="orders-state" name="state" className={forms.input} defaultValue={shown.state}>
            <option value="">Any state</option>
            {states.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="orders-from">
            Placed from (UTC)
          </label>
          <input id="orders-from" name="from" type="date" className={forms.input} defaultValue={shown.from} />
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="orders-to">
            Placed to (UTC)
          </label>
          <input id="orders-to" name="to" type="date" className={forms.input} defaultValue={shown.to} />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Filter
          </button>
          <Link to="/desk/orders">Clear</Link>
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        {total === 0 ? "No orders." : `${total} ${total === 1 ? "order" : "orders"}, newest first. Page ${page} of ${lastPage}.`}{" "}
        <a href={csvHref} download>
          Export these orders as CSV
        </a>
      </p>
      {rows.length > 0 ? (
        <table className={css.table}>
          <caption className="visually-hidden">Orders</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Placed</th>
              <th scope="col">Buyer</th>
              <th scope="col">Items</th>
              <th scope="col">Total</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.number}>
                <td data-label="Order">
                  <Link to={`/desk/orders/${row.number}`}>{row.number}</Link>
                </td>
                <td data-label="Placed">{row.placed}</td>
                <td data-label="Buyer">{row.buyer}</td>
                <td data-label="Items">{row.items}</td>
                <td data-label="Total">{row.total}</td>
                <td data-label="State">{row.state}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={lastPage} href={href} label="Pages of orders" />
    </DeskPage>
  );
}
