import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { TogetherItem } from "~/server/store/better-together";
import { togetherTotalCents } from "~/shared/better-together";
import { formatUsd } from "~/app/lib/content/format";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "./better-together.css";
import { CoverPicture } from "./CoverPicture";

/** The ids of the boxes checked in the form now. */
const checkedIn = (form: HTMLFormElement) => new Set(new FormData(form).getAll("productId").map(Number));

/**
 * "Better together" (spec section 9): the product with the products paired with it, each with a
 * box, checked at first. One post to the cart's add-selected adds the checked ones. Without JS
 * the total stays the price of them all (the server adds what is checked); with JS it follows
 * the boxes. Product pages load it in a chunk of its own: until it arrives the form works as it
 * does without JS.
 */
export default function BetterTogether({
  items,
  productUrl,
  referral,
}: {
  items: TogetherItem[];
  productUrl: string;
  referral: string | null;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [checked, setChecked] = useState(() => new Set(items.map((i) => i.availabilityId)));
  // The browser may have kept boxes unchecked from an earlier visit (back and forward).
  useEffect(() => {
    if (form.current) setChecked(checkedIn(form.current));
  }, []);
  const total = formatUsd(togetherTotalCents(items, checked));
  return (
    <section className={css.section} aria-labelledby="together-heading">
      <h2 id="together-heading" className={css.heading}>
        Better together
      </h2>
      <Form ref={form} method="post" action="/shopping-cart" onChange={(event) => setChecked(checkedIn(event.currentTarget))}>
        <input type="hidden" name="intent" value="add-selected" />
        <input type="hidden" name="productUrl" value={productUrl} />
        {referral ? <input type="hidden" name="referral" value={referral} /> : null}
        <ul className={css.items}>
          {items.map((item) => (
            <li key={item.availabilityId} className={css.item}>
              {item.coverPicture ? (
                <CoverPicture picture={item.coverPicture} alt="" sizes="112px" className={css.cover} />
              ) : (
                <img className={css.cover} src={item.cover} alt="" width={112} height={149} loading="lazy" />
              )}
              <div>
                <div className={css.choice}>
                  <input
                    className={css.checkbox}
                    type="checkbox"
                    name="productId"
                    value={item.availabilityId}
                    id={`together-${item.availabilityId}`}
                    defaultChecked
                  />
                  <label className={css.label} htmlFor={`together-${item.availabilityId}`}>
                    {item.current ? "This item: " : null}
                    {item.title}
                  </label>
                </div>
                <p className={css.facts}>
                  {item.productType}, {item.format} · <span className={css.price}>{formatUsd(item.priceCents)}</span>
                </p>
                {item.current ? null : (
                  <p className={css.facts}>
                    <Link to={item.url}>
                      View details<span className="visually-hidden"> of {item.title}</span>
                    </Link>
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
        <div className={css.summary}>
          <output className={css.total} aria-live="polite">
            Total for {checked.size === items.length ? "all" : `${checked.size} of`} {items.length} items: {total}
          </output>
          <button type="submit" className={primaryButton} disabled={checked.size === 0}>
            Add selected to cart
          </button>
        </div>
      </Form>
    </section>
  );
}
