import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { lazy } from "react";
import type { LineType } from "~/server/db/schema";
import { referralCode } from "~/server/store/links";
import { betterTogether } from "~/server/store/better-together";
import { permissionPrices, volumePrices } from "~/server/store/catalogue";
import { PRODUCT_COVER_SIZE } from "~/shared/art-sizes";
import { PERMISSION_PRICE_CENTS } from "~/shared/pricing";
import { cartLineType, showsDownloadInfo } from "~/shared/product-types";
import { socialCard } from "~/shared/social-cards";
import { productCoverPath } from "~/shared/urls";
import { JsonLd } from "~/app/components/JsonLd";
import { CoverPicture } from "~/app/components/store/CoverPicture";
import { AddToCartForm } from "~/app/components/store/AddToCartForm";
import { Deferred } from "~/app/components/Deferred";
import { availableLabel } from "~/app/components/store/ProductCard";
import * as cards from "~/app/components/cards.css";
import * as prose from "~/app/components/prose.css";
import * as css from "~/app/components/store/store.css";
import { config, db } from "~/app/lib/context/db.server";
import { formatAuthors, formatPublished, formatUsd } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { productForParams } from "~/app/lib/store/product.server";

// Its script (the total that follows the boxes) is not part of the page's up-front budget (ADR 049).
const BetterTogether = lazy(() => import("~/app/components/store/BetterTogether"));

const LINE_TYPES: Record<LineType, string> = {
  SHIP: "Print, shipped",
  EBOOK: "Ebook",
  BUNDLE: "Bundle, shipped",
  DIGITAL: "Digital download",
};

/** What the page says of a format no longer sold (ADR 091), plainly, where the buy button was; null while it is sold. */
function retiredNotice(product: { retired: boolean }, current: { retired: boolean }): string | null {
  if (!current.retired) return null;
  return product.retired
    ? "This product is no longer sold, so it cannot be added to your cart. If you bought it, your downloads stay in your order."
    : "This format is no longer sold, so it cannot be added to your cart. Other formats may still be on sale below.";
}

export async function loader({ params, request }: LoaderFunctionArgs) {
  const { product, availability } = await productForParams(params);
  const query = new URL(request.url).searchParams.get("referral");
  const referral = referralCode(query);
  const together = await betterTogether(await db(), product, availability);
  return data({
    product,
    current: availability,
    siteUrl: config().siteUrl,
    referral,
    // Switching format keeps the referral the page was opened with.
    formatQuery: referral === query ? `?referral=${referral}` : "",
    cartType: cartLineType("item", availability.code),
    volumeTiers: availability.retired ? null : volumePrices(availability),
    // Worked out here, so that its words are not part of the page's scripts.
    retired: retiredNotice(product, availability),
    permissionTiers: permissionPrices(),
    together,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => {
  if (!d) return [];
  return seo({
    title: `${d.product.title} (${d.current.format}, ${d.current.language})`,
    description: d.product.summary,
    path: d.current.url,
    siteUrl: siteUrlFrom(matches),
    type: "product",
    card: socialCard("product", d.product.slug, d.product.title),
  });
};

function jsonLd({ product, current, siteUrl }: ReturnType<typeof useLoaderData<typeof loader>>) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.title,
    description: product.summary,
    // Google's product results take no SVG: the cover as a PNG, or the uploaded one.
    image: [`${siteUrl}${product.coverPicture ? product.coverPicture.img.src : productCoverPath(product.slug, "png")}`],
    sku: String(current.id),
    category: product.productType,
    url: `${siteUrl}${current.url}`,
    offers: product.availabilities.map((a) => ({
      "@type": "Offer",
      name: `${a.format}, ${a.language}`,
      sku: String(a.id),
      url: `${siteUrl}${a.url}`,
      price: (a.listPriceCents / 100).toFixed(2),
      priceCurrency: "USD",
      availability: a.retired
        ? "https://schema.org/Discontinued"
        : a.comingSoon
          ? "https://schema.org/PreOrder"
          : "https://schema.org/InStock",
      ...(a.comingSoon && a.availableDate ? { availabilityStarts: a.availableDate } : {}),
    })),
  };
}

export default function ProductRoute() {
  const loaded = useLoaderData<typeof loader>();
  const { product, current, referral, formatQuery, cartType, volumeTiers, permissionTiers, together, retired } = loaded;
  return (
    <>
      <JsonLd data={jsonLd(loaded)} />
      <article className={css.productLayout}>
        <header className={`${prose.pageHeading} ${css.productHeader}`}>
          <p className={cards.eyebrow}>
            <Link className={cards.eyebrowLink} to="/store">
              Store
            </Link>{" "}
            · {product.productType}
          </p>
          <h1>{product.title}</h1>
          {product.authors.length > 0 ? <p>by {formatAuthors(product.authors.map((name) => ({ name })))}</p> : null}
          <p className={prose.lede}>{product.summary}</p>
        </header>
        <div className={css.purchase}>
          {product.coverPicture ? (
            <CoverPicture
              picture={product.coverPicture}
              alt={`Cover of ${product.title}`}
              sizes="(min-width: 48rem) 18rem, 60vw"
              largest
              className={css.productCover}
            />
          ) : (
            <img
              className={css.productCover}
              src={productCoverPath(product.slug)}
              alt={`Cover of ${product.title}`}
              width={PRODUCT_COVER_SIZE.width / 2}
              height={PRODUCT_COVER_SIZE.height / 2}
              fetchPriority="high"
            />
          )}
          <section className={css.buyBox} aria-labelledby="buy-heading">
            {product.availabilities.length > 1 ? (
              <nav aria-label="Formats" className={css.formatChoice}>
                <ul>
                  {product.availabilities.map((a) => (
                    <li key={a.id}>
                      <Link
                        to={`${a.url}${formatQuery}`}
                        aria-current={a.id === current.id ? "page" : undefined}
                        aria-label={`${a.format}, ${a.language}, ${a.retired ? "No longer sold" : formatUsd(a.listPriceCents)}`}
                        className={css.formatOption}
                        preventScrollReset
                      >
                        <span className={css.formatName}>{a.format}</span>
                        <span>{a.retired ? "No longer sold" : formatUsd(a.listPriceCents)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ) : null}
            <div>
              <h2 id="buy-heading">
                {current.format}, {current.language}
              </h2>
              <p className={css.price}>{formatUsd(current.listPriceCents)}</p>
            </div>
            {showsDownloadInfo(current.lineType) ? (
              <p>
                File format: {current.format}
                {current.code !== current.format ? ` (${current.code})` : null}. Download after purchase.
              </p>
            ) : null}
            {retired ? (
              <p className={css.comingSoon} role="status">
                {retired}
              </p>
            ) : (
              <>
                {current.comingSoon ? <p className={css.comingSoon}>{availableLabel(current.availableDate)}</p> : null}
                <AddToCartForm
                  availabilityId={current.id}
                  productUrl={current.url}
                  format={current.format}
                  priceCents={current.listPriceCents}
                  type={cartType}
                  referral={referral}
                  preorder={current.comingSoon}
                />
              </>
            )}
            {volumeTiers ? <PriceTable caption="Volume pricing" rows={volumeTiers} /> : null}
            {current.permissionsAvailable && !current.comingSoon && !current.retired ? (
              <div>
                <h3>Copyright permissions</h3>
                <p>
                  Permission to make copies for a class or a team: {formatUsd(PERMISSION_PRICE_CENTS)} a copy, and less for more copies.
                </p>
                <PriceTable caption="Permission prices" rows={permissionTiers} />
                <AddToCartForm
                  availabilityId={current.id}
                  productUrl={current.url}
                  format={current.format}
                  priceCents={PERMISSION_PRICE_CENTS}
                  type="Perm"
                  referral={referral}
                />
              </div>
            ) : null}
          </section>
        </div>
        <div className={css.productDetails}>
          <dl className={css.details}>
            <dt>Published</dt>
            <dd>
              <time dateTime={product.published}>{formatPublished(product.published)}</time>
            </dd>
            <dt>Topic</dt>
            <dd>
              <Link to={product.topic.url}>{product.topic.name}</Link>
            </dd>
            <dt>Pages</dt>
            <dd>{product.pages}</dd>
          </dl>
          <h2 className={prose.sectionHeading}>Description</h2>
          <p>{product.description}</p>
          {together.length > 0 ? (
            <Deferred>
              <BetterTogether items={together} productUrl={current.url} referral={referral} />
            </Deferred>
          ) : null}
          {product.contents.length > 0 ? (
            <section aria-labelledby="contents-heading">
              <h2 id="contents-heading" className={prose.sectionHeading}>
                {product.productType === "Magazine Issue" ? "In this issue" : "Contents"}
              </h2>
              <ol className={css.contents}>
                {product.contents.map((entry) => (
                  <li key={entry.title}>{entry.url ? <Link to={entry.url}>{entry.title}</Link> : entry.title}</li>
                ))}
              </ol>
            </section>
          ) : null}

          <section aria-labelledby="formats-heading">
            <h2 id="formats-heading" className={prose.sectionHeading}>
              Formats
            </h2>
            <div className={css.tableScroll}>
              <table className={css.table}>
                <thead>
                  <tr>
                    <th scope="col">Format</th>
                    <th scope="col">Language</th>
                    <th scope="col">Price</th>
                    <th scope="col">Line type</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {product.availabilities.map((a) => (
                    <tr key={a.id} aria-current={a.id === current.id ? "true" : undefined}>
                      <th scope="row">{a.format}</th>
                      <td>{a.language}</td>
                      <td>{formatUsd(a.listPriceCents)}</td>
                      <td>{LINE_TYPES[a.lineType]}</td>
                      <td>{a.retired ? "No longer sold" : a.comingSoon ? availableLabel(a.availableDate) : "In stock"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </div>
      </article>
    </>
  );
}

/** Unit prices by the number of copies. */
function PriceTable({ caption, rows }: { caption: string; rows: { copies: string; unitPriceCents: number }[] }) {
  return (
    <table className={css.table}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Copies</th>
          <th scope="col">Price each</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => (
          <tr key={t.copies}>
            <td>{t.copies}</td>
            <td>{formatUsd(t.unitPriceCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
