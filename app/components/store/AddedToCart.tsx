import { Link } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import type { AddedConfirmation } from "~/app/lib/store/cart-confirmation.server";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import * as css from "./cart.css";
import { primaryButton } from "~/app/components/controls.css";
import { LineTypeLabel, UnitPrice } from "./CartText";
import { CoverPicture } from "./CoverPicture";

/**
 * The add-to-cart confirmation: what was added (one item, or several added together), "You
 * might also like", and the way to the cart.
 * The same on its own page and in the flyout; `after` holds the flyout's close button.
 */
export function AddedToCart({
  confirmation,
  headingLevel,
  after,
}: {
  confirmation: AddedConfirmation;
  headingLevel: 1 | 2;
  after?: ReactNode;
}) {
  const { items, recommendations } = confirmation;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const Sub = headingLevel === 1 ? "h2" : "h3";
  const only = items.length === 1 ? items[0]! : null;
  return (
    <>
      <Heading id="added-title">Added to your cart</Heading>
      <p role="status" className={css.notice}>
        {only
          ? `${only.quantity === 1 ? "1 item" : `${only.quantity} items`} of “${only.title}” in your cart.`
          : `${items.length} items added to your cart.`}
      </p>
      {items.map((item) => (
        <Fragment key={item.lineId}>
          <p>
            <Link to={item.url}>{item.title}</Link>
          </p>
          <dl className={css.details}>
            <dt>Format</dt>
            <dd>{item.format}</dd>
            <dt>Type</dt>
            <dd>
              <LineTypeLabel type={item.type} />
            </dd>
            <dt>Quantity</dt>
            <dd>{item.quantity}</dd>
            <dt>Price</dt>
            <dd>
              <UnitPrice unitPriceCents={item.unitPriceCents} listPriceCents={item.listPriceCents} percentOff={item.percentOff} />
            </dd>
            <dt>Product</dt>
            <dd>{item.productType}</dd>
            <dt>Subject</dt>
            <dd>{item.topic}</dd>
            <dt>Published</dt>
            <dd>{formatPublished(item.publicationDate)}</dd>
            {item.comingSoon && item.availableDate ? (
              <>
                <dt>Status</dt>
                <dd>Coming soon: Available {formatPublished(item.availableDate)}</dd>
              </>
            ) : null}
          </dl>
        </Fragment>
      ))}
      <div className={css.actions}>
        <Link to="/shopping-cart" className={primaryButton}>
          Checkout
        </Link>
        {after}
      </div>
      {recommendations.length > 0 ? (
        <section aria-labelledby="also-like-title" className={css.section}>
          <Sub id="also-like-title">You might also like</Sub>
          <ul className={css.recommendations}>
            {recommendations.map((r) => (
              <li key={r.id} className={css.recommendation}>
                <span className={css.lineItem}>
                  {r.coverPicture ? (
                    <CoverPicture picture={r.coverPicture} alt="" sizes="48px" className={css.thumbnail} />
                  ) : (
                    <img className={css.thumbnail} src={r.cover} alt="" width={48} height={64} loading="lazy" />
                  )}
                  <span>
                    <Link to={r.url}>{r.title}</Link>
                    <span className={css.muted}>
                      {r.productType}, {r.format}: {formatUsd(r.priceCents)}
                    </span>
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
