import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { parsePaging } from "~/shared/pagination";
import { storePath } from "~/shared/urls";
import { storeFilters, storePage } from "~/server/store/catalogue";
import { EntryList } from "~/app/components/StreamList";
import { ProductCard } from "~/app/components/store/ProductCard";
import * as controls from "~/app/components/controls.css";
import * as magazine from "~/app/components/magazine.css";
import * as prose from "~/app/components/prose.css";
import * as css from "~/app/components/store/store.css";
import { config, db } from "~/app/lib/context/db.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";

const DESCRIPTION = "Books, ebooks, case studies, magazine issues, article reprints, bundles and toolkits from Meridian Review.";

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const database = await db();
  const filters = await storeFilters(database);
  // An empty value is the form's "All" choice; anything else must be a type or topic the store has.
  const type = params.get("type") ? filters.types.find((t) => t.slug === params.get("type")) : null;
  const topic = params.get("topic") ? filters.topics.find((t) => t.slug === params.get("topic")) : null;
  if (type === undefined || topic === undefined) throw new Response(null, { status: 404 });

  const unlimited = config().STREAM_UNLIMITED_LOADING;
  const paging = parsePaging(params, unlimited);
  const products = await storePage(database, { type: type?.name ?? null, topicSlug: topic?.slug ?? null }, paging);
  if (paging.page > products.page.last) throw new Response(null, { status: 404 });
  return data({
    filters,
    type: type ?? null,
    topic: topic ?? null,
    products,
    unlimited,
    loadedMore: params.has("loaded"),
  });
}

function heading(type: { name: string } | null, topic: { name: string } | null): string {
  if (type && topic) return `${type.name}: ${topic.name}`;
  return type?.name ?? topic?.name ?? "All products";
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => {
  if (!d) return [];
  const page = d.products.page.number;
  const filtered = d.type || d.topic ? `: ${heading(d.type, d.topic)}` : "";
  const tags = seo({
    title: `Store${filtered}${page > 1 ? ` (page ${page})` : ""}`,
    description: DESCRIPTION,
    path: storePath({ type: d.type?.slug ?? null, topic: d.topic?.slug ?? null }, page),
    siteUrl: siteUrlFrom(matches),
    card: pageCard("store"),
  });
  const thin = d.loadedMore || d.products.entries.length === 0;
  return thin ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};

export default function Store() {
  const { filters, type, topic, products, unlimited } = useLoaderData<typeof loader>();
  const current = { type: type?.slug ?? null, topic: topic?.slug ?? null };
  return (
    <>
      <header className={prose.pageHeading}>
        <h1>Store</h1>
        <p className={prose.lede}>{DESCRIPTION}</p>
      </header>
      <nav aria-label="Product types">
        <ul className={css.typeLinks}>
          {[{ slug: null, name: "All products" }, ...filters.types].map((t) => (
            <li key={t.slug ?? "all"}>
              <Link
                className={css.typeLink}
                to={storePath({ ...current, type: t.slug })}
                aria-current={t.slug === current.type ? "page" : undefined}
              >
                {t.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" action="/store" className={magazine.finder} aria-label="Filter products">
        <label className={magazine.field}>
          Product type
          <select name="type" className={magazine.select} defaultValue={current.type ?? ""} key={`type-${current.type}`}>
            <option value="">All product types</option>
            {filters.types.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className={magazine.field}>
          Topic
          <select name="topic" className={magazine.select} defaultValue={current.topic ?? ""} key={`topic-${current.topic}`}>
            <option value="">All topics</option>
            {filters.topics.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={controls.primaryButton}>
          Show products
        </button>
      </Form>
      <section aria-labelledby="products-heading">
        <h2 id="products-heading" className={prose.sectionHeading}>
          {heading(type, topic)}
        </h2>
        <EntryList
          stream={products}
          unlimited={unlimited}
          emptyText="No products match these choices. Try another product type or topic."
          renderEntry={(card) => <ProductCard card={card} />}
          listClassName={css.grid}
        />
        {type || topic ? (
          <p>
            <Link to="/store">Show all products</Link>
          </p>
        ) : null}
      </section>
    </>
  );
}
