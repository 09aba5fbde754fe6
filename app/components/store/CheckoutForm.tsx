import { getFormProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useCallback, useState } from "react";
import { isDomestic } from "~/shared/domestic";
import { NEW_ADDRESS } from "~/app/lib/store/address-choice";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { Checkbox, SelectField, TextField } from "~/app/components/forms/fields";
import { useHydrated } from "~/app/components/useHydrated";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm } from "~/app/components/forms/useSpecForm";
import * as css from "./checkout.css";

export interface ShippingChoiceView {
  id: string;
  name: string;
  delivery: string;
  price: string;
}

export interface CheckoutFormData {
  accountEmail: string | null;
  signedIn: boolean;
  physical: boolean;
  saved: { id: string; lines: string[] }[];
  countries: { code: string; name: string }[];
  regions: { code: string; name: string }[];
  /** The methods for a domestic (US, Canada) and an international destination, priced for this cart. */
  shipping: { domestic: ShippingChoiceView[]; international: ShippingChoiceView[] };
  promo: { ok: boolean; message: string } | null;
  defaults: Record<string, string>;
}

/**
 * The shipping-and-payment form: contact e-mail (guests), saved or new address with the
 * country's states, shipping method (when something ships), promo code. Its buttons' intents:
 * Continue, Update (the country, without JS) and Apply (the promo code).
 */
export function CheckoutForm({ page, result }: { page: CheckoutFormData; result: Parameters<typeof useSpecForm>[2] }) {
  const { signedIn, physical } = page;
  const loadSchema = useCallback(
    () => import("~/app/lib/store/checkout-forms").then((forms) => forms.shippingPaymentSchema({ guest: !signedIn, physical })),
    [signedIn, physical],
  );
  const { form, fields, summary, submitDisabled } = useSpecForm("shipping-payment", loadSchema, result, page.defaults);
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
            <p className={css.withAddress}>We will send your confirmation to {page.accountEmail}, your account's e-mail address.</p>
          ) : (
            <>
              <TextField
                meta={fields.email}
                label="Email address"
                type="email"
                autoComplete="email"
                hint="For your order confirmation and receipt."
              />
              <p className={css.muted}>
                Have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent("/shipping-payment")}`}>Sign in</Link> to use your
                saved addresses.
              </p>
            </>
          )}
        </fieldset>

        <fieldset className={css.fieldset} id="address">
          <legend className={css.legend}>{page.physical ? "Shipping address" : "Billing address"}</legend>
          {page.saved.length > 0 ? (
            <div
              role="radiogroup"
              aria-labelledby="address-choice-label"
              aria-describedby={fields.addressChoice.errors ? fields.addressChoice.errorId : undefined}
            >
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
              <SelectField
                meta={fields.countryCode}
                label="Country"
                options={page.countries.map((c) => ({ value: c.code, label: c.name }))}
                autoComplete="country"
                onChange={chooseCountry}
              />
            </div>
            {hydrated ? null : (
              <button type="submit" name="intent" value="country" formNoValidate className={forms.secondaryButton}>
                Update<span className="visually-hidden"> states and provinces for this country</span>
              </button>
            )}
          </div>
          {regions.length > 0 ? (
            <SelectField
              meta={fields.state}
              label={country === "CA" ? "Province or territory" : "State"}
              options={regions.map((r) => ({ value: r.code, label: r.name }))}
              autoComplete="address-level1"
            />
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
