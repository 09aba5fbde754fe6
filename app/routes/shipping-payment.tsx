import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { addressLines, type Address } from "~/shared/address";
import type { Cart } from "~/server/store/cart";
import { EMPTY_DRAFT, needsShipping, readDraft, savedAddresses, type CheckoutDraft } from "~/server/store/checkout";
import { shippingChoices } from "~/server/store/pricing";
import { storeMaintenance } from "~/server/store/maintenance";
import { evaluatePromo } from "~/server/store/promo";
import { COUNTRIES, regionsOf } from "~/shared/regions";
import * as css from "~/app/components/store/checkout.css";
import { CheckoutForm } from "~/app/components/store/CheckoutForm";
import { OrderLines } from "~/app/components/store/OrderLines";
import { StoreMaintenanceNotice } from "~/app/components/store/StoreMaintenanceNotice";
import { checkoutLine, checkoutShopper, shippingPaymentStep, UNKNOWN_ADDRESS } from "~/app/lib/store/checkout.server";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { CHOOSE_SHIPPING } from "~/app/lib/store/checkout-forms";
import { NEW_ADDRESS } from "~/app/lib/store/address-choice";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formatUsd } from "~/app/lib/content/format";
import { CheckoutHeading } from "~/app/components/steps/StepHeading";

const DOMESTIC_SAMPLE = "US";
const INTERNATIONAL_SAMPLE = "GB";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const maintenance = storeMaintenance(config());
  const { user, cartId, cart } = await checkoutShopper({ request, context });
  const database = await db();
  const draft = cartId ? await readDraft(database, cartId) : EMPTY_DRAFT;
  const saved = user ? await savedAddresses(database, user.id) : [];
  const country = draft.address.countryCode || "US";
  const promo = draft.promoCode && cart.lines.length > 0 ? await evaluatePromo(database, draft.promoCode, cart.lines) : null;
  return {
    maintenance,
    accountEmail: user?.email ?? null,
    signedIn: Boolean(user),
    cart: summaryOf(cart),
    physical: needsShipping(cart),
    saved: saved.map((a) => ({ id: a.id!, lines: addressLines(a) })),
    countries: COUNTRIES,
    regions: regionsOf(country),
    shipping: {
      domestic: shippingChoices(cart, DOMESTIC_SAMPLE).map(choiceView),
      international: shippingChoices(cart, INTERNATIONAL_SAMPLE).map(choiceView),
    },
    promo: promo && { ok: promo.status === "valid", message: promo.message },
    defaults: formDefaults(draft, saved, country),
  };
}

function summaryOf(cart: Cart) {
  return {
    lines: cart.lines.map(checkoutLine),
    subtotalCents: cart.subtotalCents,
  };
}

const choiceView = (c: ReturnType<typeof shippingChoices>[number]) => ({
  id: c.method.id,
  name: c.method.name,
  delivery: c.method.delivery,
  price: c.priceCents === 0 ? "Free" : formatUsd(c.priceCents),
});

function formDefaults(draft: CheckoutDraft, saved: Address[], country: string): Record<string, string> {
  const chosen =
    draft.addressId && saved.some((a) => a.id === draft.addressId)
      ? draft.addressId
      : saved.length > 0 && !draft.address.address1
        ? saved[0]!.id!
        : NEW_ADDRESS;
  return {
    email: draft.email,
    addressChoice: chosen,
    ...draft.address,
    countryCode: country,
    saveAddress: draft.saveAddress ? "on" : "",
    shippingMethod: draft.shippingMethod,
    promoCode: draft.promoCode,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  let submission: Submission<unknown, string[]> | undefined;
  const step = await shippingPaymentStep({ request, context }, (schema) => {
    const parsed = parseWithZod(form, { schema });
    submission = parsed;
    return { payload: parsed.payload as Record<string, unknown>, valid: parsed.status === "success" };
  });
  if (step.closed) return data({ closed: true as const }, { status: 503 });
  const { outcome } = step;
  switch (outcome.kind) {
    case "redirect":
      return redirect(outcome.to, 303);
    case "invalid-form":
      return rejectForm(submission!);
    case "unknown-address":
      return rejectForm(submission!, { fieldErrors: { addressChoice: [UNKNOWN_ADDRESS] } });
    case "no-shipping-method":
      return rejectForm(submission!, { fieldErrors: { shippingMethod: [CHOOSE_SHIPPING] } });
    case "promo-refused":
      return rejectForm(submission!, { fieldErrors: { promoCode: [outcome.message] } });
  }
}

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, {
    title: "Shipping and payment",
    description: "Where your order goes, how it ships, and any promo code.",
    path: "/shipping-payment",
  });

export default function ShippingPayment() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closed = page.maintenance.closed || (actionData && "closed" in actionData);
  return (
    <div>
      {closed || page.cart.lines.length === 0 ? <h1>Shipping and payment</h1> : <CheckoutHeading step={2} title="Shipping and payment" />}
      {closed ? (
        <StoreMaintenanceNotice window={page.maintenance.window} />
      ) : page.cart.lines.length === 0 ? (
        <p role="status">
          Your Shopping Cart is empty. <Link to="/store">Visit Our Store</Link>
        </p>
      ) : (
        <div className={css.layout}>
          <aside className={`${css.panel} ${css.summaryFirst}`} aria-labelledby="summary-title">
            <h2 id="summary-title">Your order</h2>
            <OrderLines lines={page.cart.lines} caption="Items in your cart" compact />
            <p>
              Subtotal: <strong>{formatUsd(page.cart.subtotalCents)}</strong>
            </p>
            <p className={css.muted}>Tax and shipping are added on the next page, where you review everything before you pay.</p>
            <p>
              <Link to="/shopping-cart">Edit your cart</Link>
            </p>
          </aside>
          <CheckoutForm page={page} result={actionData && "result" in actionData ? actionData.result : undefined} />
        </div>
      )}
    </div>
  );
}
