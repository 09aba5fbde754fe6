import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  funnelReport,
  rollUpForReport,
  salesReport,
  subscriptionsReport,
  type DaySales,
  type FunnelRow,
  type SalesFigures,
  type TierFigures,
} from "~/server/desk/reports";
import { formatUsd } from "~/shared/money";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as report from "~/app/components/desk/reports/reports.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";
import { readReportRange } from "~/app/lib/desk/report-range.server";

// The publisher's reports (ADR 090), for the store and admins: sales by day and product,
// subscriptions by tier and the meter funnel by A/B tag, over a range of UTC days chosen with a
// plain GET form (the last 30 days unless asked), each section also as CSV.

const counts = new Intl.NumberFormat("en-US");
const count = (n: number | null) => (n === null ? "—" : counts.format(n));
const share = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)}%`);

const salesFigures = (f: SalesFigures) => ({
  orders: count(f.orders),
  units: count(f.units),
  gross: formatUsd(f.grossCents),
  refundedUnits: count(f.refundedUnits),
  refunds: formatUsd(f.refundsCents),
  net: formatUsd(f.netCents),
});

const dayFigures = (d: DaySales) => ({
  day: d.day,
  orders: count(d.orders),
  units: count(d.units),
  gross: formatUsd(d.grossCents),
  refunds: formatUsd(d.refundsCents),
  net: formatUsd(d.netCents),
});

const tierFigures = (t: TierFigures) => ({
  tier: t.tier,
  active: count(t.active),
  comps: count(t.comps),
  print: count(t.print),
  started: count(t.started),
  cancelled: count(t.cancelled),
  churn: share(t.churn),
  mrr: formatUsd(t.mrrCents),
});

const funnelFigures = (r: FunnelRow) => ({
  tag: r.tag,
  guestsWalled: count(r.guestsWalled),
  registrations: count(r.registrations),
  registrationRate: share(r.registrationRate),
  subscribeWalled: count(r.subscribeWalled),
  subscriptions: count(r.subscriptions),
  subscriptionRate: share(r.subscriptionRate),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireDesk({ request, context }, "reports.view");
  const now = new Date();
  const { range, problem, query } = readReportRange(new URL(request.url), now);
  const db = await requestContext({ request, context }).db();
  await rollUpForReport(db, range, now);
  const sales = await salesReport(db, range);
  const subscriptions = await subscriptionsReport(db, range, now);
  const funnel = await funnelReport(db, range);
  return {
    range,
    problem,
    csv: {
      sales: `/desk/reports/sales.csv?${query}`,
      subscriptions: `/desk/reports/subscriptions.csv?${query}`,
      funnel: `/desk/reports/funnel.csv?${query}`,
    },
    sales: {
      days: sales.days.map(dayFigures),
      total: dayFigures(sales.total),
      products: sales.products.map((p) => ({ product: p.product, key: String(p.productId ?? "shipping"), ...salesFigures(p) })),
    },
    subscriptions: {
      asOf: deskTime(subscriptions.asOf),
      tiers: subscriptions.tiers.map(tierFigures),
      total: tierFigures(subscriptions.total),
    },
    funnel: { rows: funnel.rows.map(funnelFigures), total: funnelFigures(funnel.total), direct: count(funnel.direct) },
  };
}

export const action = async ({ request, context }: ActionFunctionArgs) => {
  await requireDesk({ request, context }, "reports.view");
  notFound();
};

export const meta: MetaFunction = (args) => deskMeta(args, "Reports");

export default function DeskReports() {
  const { range, problem, csv, sales, subscriptions, funnel } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Reports">
      <Form method="get" className={css.filters} aria-label="Choose the days">
        <div className={forms.field}>
          <label className={forms.label} htmlFor="reports-from">
            From (UTC)
          </label>
          <input id="reports-from" name="from" type="date" className={forms.input} defaultValue={range.from} />
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="reports-to">
            To (UTC)
          </label>
          <input id="reports-to" name="to" type="date" className={forms.input} defaultValue={range.to} />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Show
          </button>
          <Link to="/desk/reports">Last 30 days</Link>
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        From {range.from} to {range.to}, UTC days, both included.
      </p>

      <section className={report.section} aria-labelledby="reports-sales">
        <h2 id="reports-sales">Sales</h2>
        <p className={css.muted}>
          Orders by the day they were paid; refunds by the day they went through (their credit note), against the products they gave back.
          Gross is what buyers paid, discounts taken off and tax included; shipping is its own row.{" "}
          <a href={csv.sales} download>
            Download sales by day and product (CSV)
          </a>
        </p>
        <table className={css.table}>
          <caption className="visually-hidden">Sales by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className={report.figure}>
                Orders paid
              </th>
              <th scope="col" className={report.figure}>
                Units sold
              </th>
              <th scope="col" className={report.figure}>
                Gross
              </th>
              <th scope="col" className={report.figure}>
                Refunds
              </th>
              <th scope="col" className={report.figure}>
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {sales.days.map((d) => (
              <tr key={d.day}>
                <th scope="row" className={report.rowHead}>
                  {d.day}
                </th>
                <td data-label="Orders paid" className={report.figure}>
                  {d.orders}
                </td>
                <td data-label="Units sold" className={report.figure}>
                  {d.units}
                </td>
                <td data-label="Gross" className={report.figure}>
                  {d.gross}
                </td>
                <td data-label="Refunds" className={report.figure}>
                  {d.refunds}
                </td>
                <td data-label="Net" className={report.figure}>
                  {d.net}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className={report.totals}>
            <tr>
              <th scope="row" className={report.rowHead}>
                Total
              </th>
              <td data-label="Orders paid" className={report.figure}>
                {sales.total.orders}
              </td>
              <td data-label="Units sold" className={report.figure}>
                {sales.total.units}
              </td>
              <td data-label="Gross" className={report.figure}>
                {sales.total.gross}
              </td>
              <td data-label="Refunds" className={report.figure}>
                {sales.total.refunds}
              </td>
              <td data-label="Net" className={report.figure}>
                {sales.total.net}
              </td>
            </tr>
          </tfoot>
        </table>
        <h3>By product</h3>
        {sales.products.length === 0 ? (
          <p className={css.muted}>No sales or refunds in these days.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Sales by product</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col" className={report.figure}>
                  Orders paid
                </th>
                <th scope="col" className={report.figure}>
                  Units sold
                </th>
                <th scope="col" className={report.figure}>
                  Gross
                </th>
                <th scope="col" className={report.figure}>
                  Units refunded
                </th>
                <th scope="col" className={report.figure}>
                  Refunds
                </th>
                <th scope="col" className={report.figure}>
                  Net
                </th>
              </tr>
            </thead>
            <tbody>
              {sales.products.map((p) => (
                <tr key={p.key}>
                  <th scope="row" className={report.rowHead}>
                    {p.product}
                  </th>
                  <td data-label="Orders paid" className={report.figure}>
                    {p.orders}
                  </td>
                  <td data-label="Units sold" className={report.figure}>
                    {p.units}
                  </td>
                  <td data-label="Gross" className={report.figure}>
                    {p.gross}
                  </td>
                  <td data-label="Units refunded" className={report.figure}>
                    {p.refundedUnits}
                  </td>
                  <td data-label="Refunds" className={report.figure}>
                    {p.refunds}
                  </td>
                  <td data-label="Net" className={report.figure}>
                    {p.net}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className={report.section} aria-labelledby="reports-subscriptions">
        <h2 id="reports-subscriptions">Subscriptions by tier</h2>
        <p className={css.muted}>
          Active at {subscriptions.asOf}. New: started in these days. Cancelled: cancelled by the subscriber, or ended after failed
          renewals. Churn: cancelled as a share of the paying subscriptions active on the first day. Monthly recurring revenue (MRR): each
          paying plan active at {subscriptions.asOf} at its price a month, a yearly plan&apos;s divided by 12.{" "}
          <a href={csv.subscriptions} download>
            Download subscriptions by tier (CSV)
          </a>
        </p>
        <p>Complimentary subscriptions and print subscriptions count as active but add no revenue to the MRR.</p>
        <table className={css.table}>
          <caption className="visually-hidden">Subscriptions by tier</caption>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col" className={report.figure}>
                Active
              </th>
              <th scope="col" className={report.figure}>
                Of which complimentary
              </th>
              <th scope="col" className={report.figure}>
                Of which print
              </th>
              <th scope="col" className={report.figure}>
                New
              </th>
              <th scope="col" className={report.figure}>
                Cancelled
              </th>
              <th scope="col" className={report.figure}>
                Churn
              </th>
              <th scope="col" className={report.figure}>
                MRR
              </th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.tiers.map((t) => (
              <TierRow key={t.tier} figures={t} />
            ))}
          </tbody>
          <tfoot className={report.totals}>
            <TierRow figures={subscriptions.total} />
          </tfoot>
        </table>
      </section>

      <section className={report.section} aria-labelledby="reports-funnel">
        <h2 id="reports-funnel">The meter funnel by A/B tag</h2>
        <p className={css.muted}>
          Guests walled: guests who met the registration wall, each counted once. Registrations: accounts opened from the wall&apos;s form.
          Readers shown the subscribe wall: registered readers whose free articles ran out, each counted once. Subscriptions: paid
          subscriptions started from the paywall&apos;s subscribe link (the subscribe wall, the article counter or the video wall) with its
          tag.{" "}
          <a href={csv.funnel} download>
            Download the funnel (CSV)
          </a>
        </p>
        <table className={css.table}>
          <caption className="visually-hidden">The meter funnel by A/B tag</caption>
          <thead>
            <tr>
              <th scope="col">A/B tag</th>
              <th scope="col" className={report.figure}>
                Guests walled
              </th>
              <th scope="col" className={report.figure}>
                Registrations from the wall
              </th>
              <th scope="col" className={report.figure}>
                Registration rate
              </th>
              <th scope="col" className={report.figure}>
                Readers shown the subscribe wall
              </th>
              <th scope="col" className={report.figure}>
                Subscriptions from the wall
              </th>
              <th scope="col" className={report.figure}>
                Subscription rate
              </th>
            </tr>
          </thead>
          <tbody>
            {funnel.rows.map((r) => (
              <FunnelTableRow key={r.tag} figures={r} />
            ))}
          </tbody>
          <tfoot className={report.totals}>
            <FunnelTableRow figures={funnel.total} />
          </tfoot>
        </table>
        <p className={css.muted}>Subscriptions started without a wall&apos;s tag: {funnel.direct}.</p>
      </section>
    </DeskPage>
  );
}

function TierRow({ figures: t }: { figures: ReturnType<typeof tierFigures> }) {
  return (
    <tr>
      <th scope="row" className={report.rowHead}>
        {t.tier}
      </th>
      <td data-label="Active" className={report.figure}>
        {t.active}
      </td>
      <td data-label="Of which complimentary" className={report.figure}>
        {t.comps}
      </td>
      <td data-label="Of which print" className={report.figure}>
        {t.print}
      </td>
      <td data-label="New" className={report.figure}>
        {t.started}
      </td>
      <td data-label="Cancelled" className={report.figure}>
        {t.cancelled}
      </td>
      <td data-label="Churn" className={report.figure}>
        {t.churn}
      </td>
      <td data-label="MRR" className={report.figure}>
        {t.mrr}
      </td>
    </tr>
  );
}

function FunnelTableRow({ figures: r }: { figures: ReturnType<typeof funnelFigures> }) {
  return (
    <tr>
      <th scope="row" className={report.rowHead}>
        {r.tag}
      </th>
      <td data-label="Guests walled" className={report.figure}>
        {r.guestsWalled}
      </td>
      <td data-label="Registrations from the wall" className={report.figure}>
        {r.registrations}
      </td>
      <td data-label="Registration rate" className={report.figure}>
        {r.registrationRate}
      </td>
      <td data-label="Readers shown the subscribe wall" className={report.figure}>
        {r.subscribeWalled}
      </td>
      <td data-label="Subscriptions from the wall" className={report.figure}>
        {r.subscriptions}
      </td>
      <td data-label="Subscription rate" className={report.figure}>
        {r.subscriptionRate}
      </td>
    </tr>
  );
}
