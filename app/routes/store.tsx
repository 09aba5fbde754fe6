import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useLoaderData } from "@remix-run/react";
import { readStoreAddress, storeFilters, storePage, type StoreChoices } from "~/server/store/catalogue";
import { Pagination } from "~/app/components/Pagination";
import { ProductCard } from "~/app/components/store/ProductCard";
import { StoreChoicesForm } from "~/app/components/store/StoreChoicesForm";
import { chip, chipList } from "~/app/components/chips.css";
import * as prose from "~/app/components/prose.css";
import * as css from "~/app/components/store/store.css";
import { db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";
import { DEFAULT_STORE_SORT, storeChoicesPath } from "~/shared/store-choices";

const DESCRIPTION = "Books, ebooks, case studies, magazine issues, article reprints, bundles and toolkits from Meridian Review.";

export async function loader({ request }: LoaderFunctionArgs) {
  const database = await db();
  const filters = await storeFilters(database);
  const address = readStoreAddress(new URL(request.url).searchParams, filters);
  if (!address) throw new Response(null, { status: 404 });
  if (address.redirect) throw redirect(address.redirect);
  const products = await storePage(database, address.choices, address.page);
  if (address.page > products.page.last) throw new Response(null, { status: 404 });
  return data({ filters, choices: address.choices, path: address.path, products });
}

function heading(choices: StoreChoices): string {
  const { type, topic, format } = choices;
  const shelf = type && topic ? `${type.name}: ${topic.name}` : (type?.name ?? topic?.name ?? "All products");
  return format ? `${shelf} in ${format.name}` : shelf;
}

const narrowed = (choices: StoreChoices) => Boolean(choices.type || choices.topic || choices.format || choices.q);

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => {
  if (!d) return [];
  const { choices, products } = d;
  const page = products.page.number;
  const shelf = choices.type || choices.topic || choices.format ? `: ${heading(choices)}` : "";
  const tags = seo({
    title: `Store${shelf}${choices.q ? ` matching “${choices.q}”` : ""}${page > 1 ? ` (page ${page})` : ""}`,
    description: DESCRIPTION,
    path: d.path,
    siteUrl: siteUrlFrom(matches),
    card: pageCard("store"),
  });
  // The shelves (type and topic) are what the sitemap lists; a format, keywords or another order only rearrange them.
  const thin = Boolean(choices.format || choices.q) || choices.sort !== DEFAULT_STORE_SORT || products.entries.length === 0;
  return thin ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};

export default function Store() {
  const { filters, choices, products } = useLoaderData<typeof loader>();
  const { number, last, size, total } = products.page;
  const first = (number - 1) * size + 1;
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Store</h1>
        <p className={prose.lede}>{DESCRIPTION}</p>
      </header>
      <nav aria-label="Product types">
        <ul className={`${chipList} ${css.typeLinks}`}>
          {[null, ...filters.types].map((t) => (
            <li key={t?.slug ?? "all"}>
              <Link
                className={chip}
                to={storeChoicesPath({ ...choices, type: t })}
                aria-current={t?.slug === choices.type?.slug ? "page" : undefined}
              >
                {t?.name ?? "All products"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <StoreChoicesForm filters={filters} choices={choices} />
      <section aria-labelledby="products-heading">
        <div className={css.resultsBar}>
          <h2 id="products-heading" className={css.resultsHeading}>
            {heading(choices)}
          </h2>
          <p className={css.count} role="status">
            {total === 1 ? "1 product" : `${total} products`}
            {choices.q ? ` matching “${choices.q}”` : ""}
          </p>
        </div>
        {products.entries.length === 0 ? (
          <div className={css.empty}>
            <p>No products match these choices.</p>
            <p>
              <Link to="/store">Clear all choices</Link> to see every product, or try other words or filters.
            </p>
          </div>
        ) : (
          <>
            <ol className={css.grid} start={first > 1 ? first : undefined}>
              {products.entries.map((card) => (
                <li key={card.id}>
                  <ProductCard card={card} />
                </li>
              ))}
            </ol>
            <Pagination current={number} last={last} href={(page) => storeChoicesPath(choices, page)} />
            {narrowed(choices) ? (
              <p className={css.clear}>
                <Link to="/store">Clear all choices</Link>
              </p>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
