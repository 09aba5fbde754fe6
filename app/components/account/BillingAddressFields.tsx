import type { ReactNode } from "react";
import * as css from "~/app/components/forms/forms.css";

type Place = { code: string; name: string };

/** The lists to choose from, sent by the loader (so the page's scripts carry none of them). */
export interface BillingAddressOptions {
  countries: Place[];
  states: Place[];
  provinces: Place[];
}

export type FieldErrors = Partial<Record<string, string[] | null>> | null | undefined;

/** What a refused form sent (conform's reply), shown again as it was chosen. */
export const submittedAddress = (sent: Record<string, unknown> | null | undefined) => ({
  countryCode: typeof sent?.countryCode === "string" ? sent.countryCode : "",
  region: typeof sent?.region === "string" ? sent.region : "",
});

/**
 * The billing address sales tax follows: the country, and a state or province for the US and
 * Canada in one list (grouped by country), so the form needs no second trip without JS. The
 * server checks it and sends each field's message back.
 */
export function BillingAddressFields({
  options,
  values,
  errors,
}: {
  options: BillingAddressOptions;
  values: { countryCode: string; region: string };
  errors: FieldErrors;
}) {
  const country = errors?.countryCode?.[0];
  const region = errors?.region?.[0];
  return (
    <>
      <Field id="billing-country" label="Country" error={country}>
        <select
          id="billing-country"
          name="countryCode"
          className={css.input}
          autoComplete="country"
          defaultValue={values.countryCode}
          aria-invalid={country ? true : undefined}
          aria-describedby={country ? "billing-country-error" : undefined}
        >
          <option value="">Select</option>
          {options.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="billing-region" label="State or province (United States and Canada)" error={region}>
        <select
          id="billing-region"
          name="region"
          className={css.input}
          autoComplete="address-level1"
          defaultValue={values.region}
          aria-invalid={region ? true : undefined}
          aria-describedby={region ? "billing-region-error" : undefined}
        >
          <option value="">Not in the United States or Canada</option>
          {(
            [
              ["United States", options.states],
              ["Canada", options.provinces],
            ] as const
          ).map(([group, places]) => (
            <optgroup key={group} label={group}>
              {places.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
    </>
  );
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className={error ? `${css.field} ${css.withError}` : css.field}>
      <label className={css.label} htmlFor={id}>
        {label}
      </label>
      {error ? (
        <p id={`${id}-error`} className={css.fieldError}>
          {error}
        </p>
      ) : null}
      {children}
    </div>
  );
}
