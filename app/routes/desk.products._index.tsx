import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isStorableText } from "~/server/db/storable-text";
import { listDeskProducts } from "~/server/desk/products";
import { productQuerySchema } from "~/shared/product-fields";
import { PRODUCT_LIST_STATE_NAMES, PRODUCT_LIST_STATES, type ProductListState } from "~/shared/product-vocabulary";
import { Pagination } from "~/app/components/Pagination";
import { primaryButton } from "~/app/components/controls.css";
import { DeskPage } from "~/app/components/desk/DeskPage";
import * as css from "~/app/components/desk/desk.css";
import * as forms from "~/app/components/forms/forms.css";
import { requestContext } from "~/app/lib/context/request-context.server";
import { notFound, requireDesk } from "~/app/lib/desk/access.server";
import { deskTime } from "~/app/lib/desk/format";
import { deskMeta } from "~/app/lib/desk/meta";

// The store's products (ADR 091), for the store and admins: newest first, found by words in the
// title, slug or authors and by status, 25 a page with plain links that keep the search.

const PAGE_SIZE = 25;
const BAD_QUERY =
  "Some of the search could not be read and was left out: words up to 200 characters, a status from the list, a page from 1.";

/** The search from the address: each part that cannot be read is left out on its own, and said so. */
function listingQuery(request: Request): { q: string; status: ProductListState | null; page: number; problem: string | null } {
  const params = new URL(request.url).searchParams;
  const wanted: { q?: string; status?: ProductListState; page?: number } = {};
  let problem = false;
  for (const key of ["q", "status", "page"] as const) {
    const value = params.get(key)?.trim();
    if (!value) continue;
    const one = isStorableText(value) ? productQuerySchema.safeParse({ [key]: value }) : undefined;
    if (one?.success) Object.assign(wanted, one.data);
    else problem = true;
  }
  return { q: wanted.q ?? "", status: wanted.status ?? null, page: wanted.page ?? 1, problem: problem ? BAD_QUERY : null };
}

function productsHref(q: string, status: string | null, page: number): string {
  const query = new URLSearchParams();
  if (q) query.set("q", q);
  if (status) query.set("status", status);
  if (page > 1) query.set("page", String(page));
  const search = query.toString();
  return search ? `/desk/products?${search}` : "/desk/products";
}

export async function loader(args: LoaderFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  const { q, status, page, problem } = listingQuery(args.request);
  const found = await listDeskProducts(await requestContext(args).db(), { q, status: status ?? undefined, page, pageSize: PAGE_SIZE });
  return {
    q,
    status,
    page,
    problem,
    total: found.total,
    lastPage: Math.max(1, Math.ceil(found.total / PAGE_SIZE)),
    items: found.items.map((p) => ({
      ...p,
      updatedAt: p.updatedAt && deskTime(p.updatedAt),
      stateName: PRODUCT_LIST_STATE_NAMES[p.state],
    })),
  };
}

/** Nothing is posted here; anyone without a role still gets the desk's 404 rather than a 405. */
export async function action(args: ActionFunctionArgs) {
  await requireDesk(args, "catalogue.products");
  notFound();
}

export const meta: MetaFunction = (args) => deskMeta(args, "Products");

export default function DeskProducts() {
  const { q, status, page, problem, total, lastPage, items } = useLoaderData<typeof loader>();
  const filtered = Boolean(q || status);
  return (
    <DeskPage title="Products">
      <p>
        <Link to="/desk/products/new" className={primaryButton}>
          New product
        </Link>
      </p>
      <Form method="get" action="/desk/products" className={css.search} role="search" aria-label="Find products">
        <div className={forms.field}>
          <label className={forms.label} htmlFor="products-q">
            Find products
          </label>
          <input id="products-q" name="q" type="search" className={forms.input} defaultValue={q} maxLength={200} />
        </div>
        <div className={forms.field}>
          <label className={forms.label} htmlFor="products-status">
            Status
          </label>
          <select id="products-status" name="status" className={forms.input} defaultValue={status ?? ""}>
            <option value="">Any status</option>
            {PRODUCT_LIST_STATES.map((s) => (
              <option key={s} value={s}>
                {PRODUCT_LIST_STATE_NAMES[s]}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.actions}>
          <button type="submit" className={forms.secondaryButton}>
            Search
          </button>
          {filtered ? <Link to="/desk/products">Clear</Link> : null}
        </div>
      </Form>
      {problem ? (
        <p className={forms.formMessage} role="alert">
          {problem}
        </p>
      ) : null}
      <p className={css.muted} role="status">
        {total === 0
          ? filtered
            ? "No products match."
            : "No products yet."
          : `${total} ${total === 1 ? "product" : "products"}${filtered ? " match" : ""}, newest first. Page ${Math.min(page, lastPage)} of ${lastPage}.`}
      </p>
      {items.length > 0 ? (
        <table className={css.table}>
          <caption className="visually-hidden">Products, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Type</th>
              <th scope="col">Topic</th>
              <th scope="col">Published</th>
              <th scope="col">Formats</th>
              <th scope="col">Status</th>
              <th scope="col">Last changed</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id}>
                <td data-label="Title">
                  <Link to={`/desk/products/${p.id}`}>{p.title}</Link>
                </td>
                <td data-label="Type">{p.productType}</td>
                <td data-label="Topic">{p.topic}</td>
                <td data-label="Published">{p.published}</td>
                <td data-label="Formats">{p.formats}</td>
                <td data-label="Status">{p.stateName}</td>
                <td data-label="Last changed">{p.updatedAt ? `${p.updatedAt} by ${p.updatedBy}` : "As seeded"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pagination current={page} last={lastPage} href={(to) => productsHref(q, status, to)} label="Pages of products" />
    </DeskPage>
  );
}
