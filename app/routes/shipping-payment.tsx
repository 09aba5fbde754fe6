import { getFormProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { addressLines, normalizeAddress, type Address } from "../../server/store/address";
import { readCart, type Cart } from "../../server/store/cart";
import { EMPTY_DRAFT, needsShipping, readDraft, saveAddress, saveDraft, savedAddresses, shippingChoices, type CheckoutDraft } from "../../server/store/checkout";
import { storeMaintenance } from "../../server/store/maintenance";
import { evaluatePromo } from "../../server/store/promo";
import { COUNTRIES, isDomestic, regionsOf } from "../../server/store/regions";
import { findShippingMethod } from "../../server/store/shipping";
import { primaryButton } from "../components/controls.css";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { Checkbox, SelectField, TextField, useHydrated } from "../components/forms/fields";
import * as forms from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import * as css from "../components/store/checkout.css";
import { OrderLines } from "../components/store/OrderLines";
import { StoreMaintenanceNotice } from "../components/store/StoreMaintenanceNotice";
import { currentCartId } from "../lib/cart.server";
import { config, db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { formPageMeta } from "../lib/form-meta";
import { CHOOSE_SHIPPING, NEW_ADDRESS, shippingPaymentSchema } from "../lib/forms/checkout";
import { rejectForm } from "../lib/forms/reply.server";
import { formatUsd } from "../lib/format";
import { currentUser } from "../lib/session.server";

const DOMESTIC_SAMPLE = "US";
const INTERNATIONAL_SAMPLE = "GB";

async function shopper(request: Request) {
  const user = await currentUser(request);
  const cartId = await currentCartId(request, user?.id);
  const cart = await readCart(await db(), cartId);
  return { user, cartId, cart };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const maintenance = storeMaintenance(config());
  const { user, cartId, cart } = await shopper(request);
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
    lines: cart.lines.map((l) => ({ title: l.title, format: l.format, quantity: l.quantity, unitPriceCents: l.unitPriceCents, lineTotalCents: l.lineTotalCents, availableDate: l.comingSoon ? l.availableDate : null })),
    subtotalCents: cart.subtotalCents,
  };
}

const choiceView = (c: ReturnType<typeof shippingChoices>[number]) => ({ id: c.method.id, name: c.method.name, delivery: c.method.delivery, price: c.priceCents === 0 ? "Free" : formatUsd(c.priceCents) });

function formDefaults(draft: CheckoutDraft, saved: Address[], country: string): Record<string, string> {
  const chosen = draft.addressId && saved.some((a) => a.id === draft.addressId) ? draft.addressId : saved.length > 0 && !draft.address.address1 ? saved[0]!.id! : NEW_ADDRESS;
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

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** The draft as typed in the form, whichever button was pressed. */
function draftFrom(payload: Record<string, unknown>, confirmed: boolean): CheckoutDraft {
  const choice = str(payload.addressChoice);
  return {
    email: str(payload.email).trim(),
    addressId: choice && choice !== NEW_ADDRESS ? choice : null,
    address: normalizeAddress({
      firstName: str(payload.firstName),
      lastName: str(payload.lastName),
      address1: str(payload.address1),
      address2: str(payload.address2),
      city: str(payload.city),
      state: str(payload.state),
      postalCode: str(payload.postalCode),
      countryCode: str(payload.countryCode) || "US",
    }),
    saveAddress: payload.saveAddress === "on",
    shippingMethod: str(payload.shippingMethod),
    promoCode: str(payload.promoCode),
    confirmed,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const maintenance = storeMaintenance(config());
  if (maintenance.closed) return data({ closed: true as const }, { status: 503 });
  const { user, cartId, cart } = await shopper(request);
  if (!cartId || cart.lines.length === 0) return redirect("/shipping-payment", 303);
  const database = await db();
  const submission = parseWithZod(form, { schema: shippingPaymentSchema({ guest: !user, physical: needsShipping(cart) }) });
  const payload = submission.payload as Record<string, unknown>;
  const intent = payload.intent === "country" || payload.intent === "promo" ? payload.intent : "continue";

  if (intent !== "continue") {
    await saveDraft(database, cartId, draftFrom(payload, false));
    return redirect(`/shipping-payment#${intent === "promo" ? "promoCode" : "address"}`, 303);
  }
  if (submission.status !== "success") return rejectForm(submission);

  const draft = draftFrom(payload, true);
  const saved = user ? await savedAddresses(database, user.id) : [];
  const address = draft.addressId ? saved.find((a) => a.id === draft.addressId) : draft.address;
  if (!address) return rejectForm(submission, { fieldErrors: { addressChoice: ["Please choose one of your addresses, or enter a new one."] } });
  if (needsShipping(cart) && !findShippingMethod(address.countryCode, draft.shippingMethod)) {
    return rejectForm(submission, { fieldErrors: { shippingMethod: [CHOOSE_SHIPPING] } });
  }
  if (draft.promoCode) {
    const promo = await evaluatePromo(database, draft.promoCode, cart.lines);
    if (promo.status !== "valid") return rejectForm(submission, { fieldErrors: { promoCode: [promo.message] } });
  }
  if (user && !draft.addressId && draft.saveAddress) {
    const id = await saveAddress(database, user.id, draft.address);
    if (id) draft.addressId = id;
  }
  await saveDraft(database, cartId, { ...draft, email: user ? "" : draft.email });
  return redirect("/review-order", 303);
}

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, { title: "Shipping and payment", description: "Where your order goes, how it ships, and any promo code.", path: "/shipping-payment" });

export default function ShippingPayment() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const closed = page.maintenance.closed || (actionData && "closed" in actionData);
  return (
    <div>
      <h1>Shipping and payment</h1>
      {closed ? (
        <StoreMaintenanceNotice window={page.maintenance.window} />
      ) : page.cart.lines.length === 0 ? (
        <p role="status">
          Your Shopping Cart is empty. <Link to="/store">Visit Our Store</Link>
        </p>
      ) : (
        <div className={css.layout}>
          <CheckoutForm result={actionData && "result" in actionData ? actionData.result : undefined} />
          <aside className={css.panel} aria-labelledby="summary-title">
            <h2 id="summary-title">Your order</h2>
            <OrderLines lines={page.cart.lines} caption="Items in your cart" />
            <p>
              Subtotal: <strong>{formatUsd(page.cart.subtotalCents)}</strong>
            </p>
            <p className={css.muted}>Tax and shipping are added on the next page, where you review everything before you pay.</p>
            <p>
              <Link to="/shopping-cart">Edit your cart</Link>
            </p>
          </aside>
        </div>
      )}
    </div>
  );
}

function CheckoutForm({ result }: { result: Parameters<typeof useSpecForm>[2] }) {
  const page = useLoaderData<typeof loader>();
  const schema = useMemo(() => shippingPaymentSchema({ guest: !page.signedIn, physical: page.physical }), [page.signedIn, page.physical]);
  const { form, fields, summary, submitDisabled } = useSpecForm("shipping-payment", schema, result, page.defaults);
  const hydrated = useHydrated();
  const [country, setCountry] = useState(page.defaults.countryCode ?? "US");
  const regionsFetcher = useFetcher<{ regions: { code: string; name: string }[] }>();
  const regions = regionsFetcher.data && country !== page.defaults.countryCode ? regionsFetcher.data.regions : page.regions;
  const methods = isDomestic(country) ? page.shipping.domestic : page.shipping.international;

  const chooseCountry = (code: string) => {
    setCountry(code);
    if (code) regionsFetcher.load(`/service/commerce/state-province/${encodeURIComponent(code)}`);
  };

  return (
    <div>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        {/* Enter in a text field presses the form's first button: let that be Continue. */}
        <button type="submit" name="intent" value="continue" className="visually-hidden" tabIndex={-1} aria-hidden="true">
          Continue
        </button>
        <fieldset className={css.fieldset}>
          <legend className={css.legend}>Contact</legend>
          {page.accountEmail ? (
            <p>We will send your confirmation to {page.accountEmail}, your account's e-mail address.</p>
          ) : (
            <>
              <TextField meta={fields.email} label="Email address" type="email" autoComplete="email" hint="For your order confirmation and receipt." />
              <p className={css.muted}>
                Have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent("/shipping-payment")}`}>Sign in</Link> to use your saved addresses.
              </p>
            </>
          )}
        </fieldset>

        <fieldset className={css.fieldset} id="address">
          <legend className={css.legend}>{page.physical ? "Shipping address" : "Billing address"}</legend>
          {page.saved.length > 0 ? (
            <div role="radiogroup" aria-labelledby="address-choice-label" aria-describedby={fields.addressChoice.errors ? fields.addressChoice.errorId : undefined}>
              <p id="address-choice-label" className={forms.label}>
                Send it to
              </p>
              {fields.addressChoice.errors ? (
                <p id={fields.addressChoice.errorId} className={forms.fieldError}>
                  {fields.addressChoice.errors[0]}
                </p>
              ) : null}
              <ul className={css.choices}>
                {page.saved.map((a, i) => (
                  <li key={a.id} className={css.choice}>
                    <input {...radio(fields.addressChoice, a.id)} id={i === 0 ? fields.addressChoice.id : `address-${a.id}`} />
                    <label htmlFor={i === 0 ? fields.addressChoice.id : `address-${a.id}`}>{a.lines.join(", ")}</label>
                  </li>
                ))}
                <li className={css.choice}>
                  <input {...radio(fields.addressChoice, NEW_ADDRESS)} id="address-new" />
                  <label htmlFor="address-new">A new address (below)</label>
                </li>
              </ul>
            </div>
          ) : (
            <input type="hidden" name={fields.addressChoice.name} value={NEW_ADDRESS} />
          )}
          <TextField meta={fields.firstName} label="First name" autoComplete="given-name" />
          <TextField meta={fields.lastName} label="Last name" autoComplete="family-name" />
          <TextField meta={fields.address1} label="Address line 1" autoComplete="address-line1" />
          <TextField meta={fields.address2} label="Address line 2 (optional)" autoComplete="address-line2" />
          <TextField meta={fields.city} label="City" autoComplete="address-level2" />
          <div className={css.inline}>
            <div className={css.grow}>
              <SelectField meta={fields.countryCode} label="Country" options={COUNTRIES.map((c) => ({ value: c.code, label: c.name }))} autoComplete="country" onChange={chooseCountry} />
            </div>
            {hydrated ? null : (
              <button type="submit" name="intent" value="country" formNoValidate className={forms.secondaryButton}>
                Update<span className="visually-hidden"> states and provinces for this country</span>
              </button>
            )}
          </div>
          {regions.length > 0 ? (
            <SelectField meta={fields.state} label={country === "CA" ? "Province or territory" : "State"} options={regions.map((r) => ({ value: r.code, label: r.name }))} autoComplete="address-level1" />
          ) : (
            <TextField meta={fields.state} label="State, province or region (optional)" autoComplete="address-level1" />
          )}
          <TextField meta={fields.postalCode} label={country === "US" ? "ZIP code" : "Postal code"} autoComplete="postal-code" />
          {page.signedIn ? (
            <Checkbox meta={fields.saveAddress} defaultChecked={false}>
              Save this address to my account
            </Checkbox>
          ) : null}
        </fieldset>

        {page.physical ? (
          <fieldset className={css.fieldset} aria-describedby={fields.shippingMethod.errors ? fields.shippingMethod.errorId : undefined}>
            <legend className={css.legend}>Shipping method</legend>
            {fields.shippingMethod.errors ? (
              <p id={fields.shippingMethod.errorId} className={forms.fieldError}>
                {fields.shippingMethod.errors[0]}
              </p>
            ) : null}
            <ul className={css.choices}>
              {methods.map((m, i) => (
                <li key={m.id} className={css.choice}>
                  <input {...radio(fields.shippingMethod, m.id)} id={i === 0 ? fields.shippingMethod.id : `shipping-${m.id}`} />
                  <label htmlFor={i === 0 ? fields.shippingMethod.id : `shipping-${m.id}`}>
                    {m.name} ({m.delivery}): {m.price}
                  </label>
                </li>
              ))}
            </ul>
            {hydrated ? null : <p className={css.muted}>The methods offered depend on the country: press Update after changing it.</p>}
          </fieldset>
        ) : (
          <p>Everything in your order is digital: there is nothing to ship.</p>
        )}

        <fieldset className={css.fieldset}>
          <legend className={css.legend}>Promo code</legend>
          <div className={css.inline}>
            <div className={css.grow}>
              <TextField meta={fields.promoCode} label="Promo code (optional)" autoComplete="off" />
            </div>
            <button type="submit" name="intent" value="promo" formNoValidate className={forms.secondaryButton}>
              Apply<span className="visually-hidden"> promo code</span>
            </button>
          </div>
          {page.promo && !fields.promoCode.errors ? (
            <p role="status" className={page.promo.ok ? css.good : css.bad}>
              {page.promo.message}
            </p>
          ) : null}
        </fieldset>

        <p>You will pay on our payment provider's secure page after reviewing your order.</p>
        <button type="submit" name="intent" value="continue" className={primaryButton} disabled={submitDisabled}>
          Continue
        </button>
      </Form>
    </div>
  );
}

/** A radio button's props for one value of a field (React wants `key` apart from the spread). */
function radio(meta: FieldMetadata<string | undefined>, value: string) {
  const { key: _key, ...props } = getInputProps(meta, { type: "radio", value });
  return props;
}
