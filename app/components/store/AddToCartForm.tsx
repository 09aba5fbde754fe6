import { getFormProps } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { Suspense, useEffect, useState } from "react";
import { lazyEnhancement } from "~/app/lib/http/lazy-enhancement";
import type { addToCartSchema } from "~/app/lib/store/cart-forms";
import type { CartAction } from "~/app/routes/shopping-cart";
import { primaryButton } from "~/app/components/controls.css";
import { TextField } from "~/app/components/forms/fields";
import { useHydrated } from "~/app/components/useHydrated";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as css from "./cart.css";
import { ViaFetcherField } from "~/app/lib/forms/via-fetcher";

// The confirmation's dialog is wanted only after an add: its code loads while the add is on its way.
const AddResultDialog = lazyEnhancement(() => import("./AddResultDialog"));

const loadAddToCartSchema: SchemaLoader<typeof addToCartSchema> = () =>
  import("~/app/lib/store/cart-forms").then((forms) => forms.addToCartSchema);

export interface AddToCartFormProps {
  availabilityId: number;
  productUrl: string;
  format: string;
  priceCents: number;
  type: "Ship" | "Digital" | "Perm";
  referral: string | null;
  /** A coming-soon item is pre-ordered (ADR 092): the button says so. */
  preorder?: boolean;
}

export type AddResult = Extract<NonNullable<ReturnType<typeof useFetcher<CartAction>>["data"]>, { intent: "add" }>;

/**
 * Add to cart: the spec's cart-add fields posted to /shopping-cart. Without JS the shopper lands
 * on the confirmation page (or the apology); with JS the form posts through a fetcher and the
 * confirmation or the apology opens in a dialog over the page. A digital item has no quantity:
 * it is sold one to an order.
 */
export function AddToCartForm({ availabilityId, productUrl, format, priceCents, type, referral, preorder = false }: AddToCartFormProps) {
  const formId = `add-to-cart-${availabilityId}-${type.toLowerCase()}`;
  const fetcher = useFetcher<CartAction>({ key: formId });
  const hydrated = useHydrated();
  const data = fetcher.data && fetcher.data.intent === "add" ? (fetcher.data as AddResult) : undefined;
  const { form, fields } = useSpecForm(formId, loadAddToCartSchema, data && "result" in data ? data.result : undefined, { quantity: "1" });
  const [shown, setShown] = useState<AddResult | null>(null);

  useEffect(() => {
    if (fetcher.state !== "idle") void AddResultDialog.preload();
    else if (data) setShown(data);
  }, [fetcher.state, data]);

  return (
    <>
      <fetcher.Form method="post" action="/shopping-cart" {...getFormProps(form)} noValidate className={css.addForm}>
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="productId" value={availabilityId} />
        <input type="hidden" name="productUrl" value={productUrl} />
        <input type="hidden" name="type" value={type} />
        <input type="hidden" name="format" value={format} />
        {/* One of the spec's cart-add fields; the server ignores it and prices from the catalogue. */}
        <input type="hidden" name="productPrice" value={(priceCents / 100).toFixed(2)} />
        {referral ? <input type="hidden" name="referral" value={referral} /> : null}
        {hydrated ? <ViaFetcherField /> : null}
        {type === "Digital" ? (
          <input type="hidden" name="quantity" value="1" />
        ) : (
          <TextField
            meta={fields.quantity}
            label={type === "Perm" ? "Number of copies" : "Quantity"}
            inputMode="numeric"
            autoComplete="off"
          />
        )}
        <div>
          <button type="submit" className={primaryButton} disabled={fetcher.state !== "idle"}>
            {type === "Perm" ? "Add Permissions to Cart" : preorder ? "Pre-order" : "Add to Cart"}
          </button>
        </div>
      </fetcher.Form>
      {shown ? (
        <Suspense fallback={null}>
          <AddResultDialog result={shown} onClose={() => setShown(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
