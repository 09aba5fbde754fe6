import { useId } from "react";
import { formatUsd } from "../../lib/format";
import * as controls from "../controls.css";
import * as forms from "../forms/forms.css";

interface Props {
  availabilityId: number;
  productUrl: string;
  format: string;
  priceCents: number;
  type: "Ship" | "Digital" | "Perm";
  referral: string | null;
}

// Stand-in until the cart's own form is merged: the spec's cart-add fields as a plain post.
export function AddToCartForm({ availabilityId, productUrl, format, priceCents, type, referral }: Props) {
  const quantityId = useId();
  return (
    <form method="post" action="/shopping-cart" className={forms.form}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={availabilityId} />
      <input type="hidden" name="productUrl" value={productUrl} />
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="format" value={format} />
      <input type="hidden" name="productPrice" value={formatUsd(priceCents)} />
      {referral ? <input type="hidden" name="referral" value={referral} /> : null}
      {type === "Digital" ? (
        <input type="hidden" name="quantity" value="1" />
      ) : (
        <div className={forms.field}>
          <label className={forms.label} htmlFor={quantityId}>
            {type === "Perm" ? "Number of copies" : "Quantity"}
          </label>
          <input className={forms.input} id={quantityId} name="quantity" type="number" inputMode="numeric" min={1} defaultValue={1} required />
        </div>
      )}
      <button type="submit" className={controls.primaryButton}>
        {type === "Perm" ? "Add permissions to cart" : "Add to cart"}
      </button>
    </form>
  );
}
