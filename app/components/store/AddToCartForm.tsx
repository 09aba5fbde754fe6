import { getFormProps } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { addToCartSchema } from "../../lib/forms/cart";
import type { CartAction } from "../../routes/shopping-cart";
import { primaryButton } from "../controls.css";
import { TextField } from "../forms/fields";
import { useHydrated } from "../useHydrated";
import { useSpecForm, type SchemaLoader } from "../forms/useSpecForm";
import { AddedToCart } from "./AddedToCart";
import { AddFailure } from "./AddFailure";
import * as css from "./cart.css";
import { ViaFetcherField } from "../../lib/via-fetcher";

const loadAddToCartSchema: SchemaLoader<typeof addToCartSchema> = () =>
  import("../../lib/forms/cart").then((forms) => forms.addToCartSchema);

export interface AddToCartFormProps {
  availabilityId: number;
  productUrl: string;
  format: string;
  priceCents: number;
  type: "Ship" | "Digital" | "Perm";
  referral: string | null;
}

type AddResult = Extract<NonNullable<ReturnType<typeof useFetcher<CartAction>>["data"]>, { intent: "add" }>;

/**
 * Add to cart: the spec's cart-add fields posted to /shopping-cart. Without JS the shopper lands
 * on the confirmation page (or the apology); with JS the form posts through a fetcher and the
 * confirmation or the apology opens in a dialog over the page. A digital item has no quantity:
 * it is sold one to an order.
 */
export function AddToCartForm({ availabilityId, productUrl, format, priceCents, type, referral }: AddToCartFormProps) {
  const formId = `add-to-cart-${availabilityId}-${type.toLowerCase()}`;
  const fetcher = useFetcher<CartAction>({ key: formId });
  const hydrated = useHydrated();
  const data = fetcher.data && fetcher.data.intent === "add" ? (fetcher.data as AddResult) : undefined;
  const { form, fields } = useSpecForm(formId, loadAddToCartSchema, data && "result" in data ? data.result : undefined, { quantity: "1" });
  const [shown, setShown] = useState<AddResult | null>(null);

  useEffect(() => {
    if (fetcher.state === "idle" && data) setShown(data);
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
            {type === "Perm" ? "Add Permissions to Cart" : "Add to Cart"}
          </button>
        </div>
      </fetcher.Form>
      {shown ? <AddResultDialog result={shown} onClose={() => setShown(null)} /> : null}
    </>
  );
}

/** The confirmation or the apology, as a modal dialog (Escape or its button closes it). */
function AddResultDialog({ result, onClose }: { result: AddResult; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const close = () => dialog.current?.close();
  const closeButton = (label: string) => (
    <button type="button" className={css.linkButton} onClick={close}>
      {label}
    </button>
  );
  return (
    <dialog ref={dialog} className={css.dialog} aria-labelledby={"added" in result ? "added-title" : "add-failed-title"} onClose={onClose}>
      {"added" in result ? (
        <AddedToCart confirmation={result.added} headingLevel={2} after={closeButton("Continue shopping")} />
      ) : (
        <AddFailure failure={result.failure} headingLevel={2} after={closeButton("Close")} />
      )}
    </dialog>
  );
}
