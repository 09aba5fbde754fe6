import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isStorableText } from "~/server/db/storable-text";
import { listDeskPromos, listDeskVouchers, OFFER_STATE_NAMES } from "~/server/desk/offers";
import { Pagination } from "~/app/components/Pagination";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskMeta } from "~/app/lib/desk/meta";

// The store's offers (ADR 091): every promo code, with its dates, its uses against its limit and
// whether it works now; and the vouchers, found by code or by what they give, 25 a page with
// plain links that keep the search.

const PAGE_SIZE = 25;

function vouchersQuery(request: Request): { q: string; page: number } {
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim();
  const page = Number(params.get("page") ?? "1");
  return {
    q: q.length <= 100 && isStorableText(q) ? q : "",
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

function vouchersHref(q: string, page: number): string {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return `/desk/offers${search ? `?${search}` : ""}#vouchers-heading`;
}

const uses = (standing: number, max: number | null) => (max === null ? `${standing}` : `${standing} of ${max}`);
const dates = (from: string | null, to: string | null) => (from ? `${from} to ${to ?? "no end"}` : to ? `Until ${to}` : "Always");

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  const { q, page } = vouchersQuery(args.request);
  const db = await requestContext(args).db();
  const [promos, vouchers] = await Promise.all([listDeskPromos(db), listDeskVouchers(db, { q, page, pageSize: PAGE_SIZE })]);
  return {
    q,
    page,
    lastPage: Math.max(1, Math.ceil(vouchers.total / PAGE_SIZE)),
    total: vouchers.total,
    promos: promos.map((p) => ({
      code: p.code,
      description: p.description,
      dates: dates(p.startsOn, p.endsOn),
      uses: uses(p.standingUses, p.maxUses),
      state: OFFER_STATE_NAMES[p.state],
    })),
    vouchers: vouchers.items.map((v) => ({
      code: v.code,
      item: v.item.label,
      dates: dates(v.startsOn, v.endsOn),
      uses: uses(v.standingUses, v.maxUses),
      state: OFFER_STATE_NAMES[v.state],
    })),
  };
}

/** Nothing is posted here; anyone without a role still gets the desk's 404 rather than a 405. */
export async function action(args: ActionFunctionArgs) {
  await requireDesk(args, "catalogue.offers");
  notFound();
}

export const meta: MetaFunction = (args) => deskMeta(args, "Offers");

export default function DeskOffers() {
  const { q, page, lastPage, total, promos, vouchers } = useLoaderData<typeof loader>();
  return (
    <DeskPage title="Offers">
      <section aria-labelledby="promos-heading">
        <h2 id="promos-heading">Promo codes</h2>
        <p>
          <Link to="/desk/offers/promo-codes/new">New promo code</Link>
        </p>
        {promos.length === 0 ? (
          <p>No promo codes yet.</p>
        ) : (
          <table className={css.table}>
            <caption className="visually-hidden">Promo codes, the latest to start first</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Gives</th>
                <th scope="col">Days</th>
                <th scope="col">Uses</th>
                <th scope="col">Now</th>
              </tr>
            </thead>
            <tbody>
              {promos.map((p) => (
                <tr key={p.code}>
                  <td data-label="Code">
                    <Link to={`/desk/offers/promo-codes/${p.code}`} className={css.code}>
                      {p.code}
                    </Link>
                  </td>
                  <td data-label="Gives">{p.description}</td>
                  <td data-label="Days">{p.dates}</td>
                  <td data-label="Uses">{p.uses}</td>
                  <td data-label="Now">{p.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="vouchers-heading">
        <h2 id="vouchers-heading">Vouchers</h2>
        <p>
          <Link to="/desk/offers/vouchers/new">New voucher</Link>
        </p>
        <Form method="get" action="/desk/offers" className={css.search} role="search" aria-label="Find vouchers">
          <div className={forms.field}>
            <label className={forms.label} htmlFor="vouchers-q">
              Find vouchers
            </label>
            <input id="vouchers-q" name="q" type="search" className={forms.input} defaultValue={q} maxLength={100} />
          </div>
          <div className={forms.actions}>
            <button type="submit" className={forms.secondaryButton}>
              Search
            </button>
            {q ? <Link to="/desk/offers">Clear</Link> : null}
          </div>
        </Form>
        <p className={css.muted} role="status">
          {total === 0
            ? q
              ? `No vouchers match “${q}”.`
              : "No vouchers yet."
            : `${total} ${total === 1 ? "voucher" : "vouchers"}${q ? ` match “${q}”` : ""}, by code. Page ${Math.min(page, lastPage)} of ${lastPage}.`}
        </p>
        {vouchers.length > 0 ? (
          <table className={css.table}>
            <caption className="visually-hidden">Vouchers, by code</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Gives</th>
                <th scope="col">Days</th>
                <th scope="col">Uses</th>
                <th scope="col">Now</th>
              </tr>
            </thead>
            <tbody>
              {vouchers.map((v) => (
                <tr key={v.code}>
                  <td data-label="Code">
                    <Link to={`/desk/offers/vouchers/${v.code}`} className={css.code}>
                      {v.code}
                    </Link>
                  </td>
                  <td data-label="Gives">{v.item}</td>
                  <td data-label="Days">{v.dates}</td>
                  <td data-label="Uses">{v.uses}</td>
                  <td data-label="Now">{v.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <Pagination current={page} last={lastPage} href={(to) => vouchersHref(q, to)} label="Pages of vouchers" />
      </section>
    </DeskPage>
  );
}
