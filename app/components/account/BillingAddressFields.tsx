import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { SelectField, Shell } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { COUNTRIES, regionsOf } from "~/shared/regions";

const US_STATES = regionsOf("US");
const CA_PROVINCES = regionsOf("CA");

/**
 * The billing address sales tax follows: the country, and a state or province for the US and
 * Canada in one list (grouped by country), so the form needs no second trip without JS.
 */
export function BillingAddressFields({
  fields,
}: {
  fields: { countryCode: FieldMetadata<string | undefined>; region: FieldMetadata<string | undefined> };
}) {
  const { key, ...region } = getSelectProps(fields.region);
  return (
    <>
      <SelectField
        meta={fields.countryCode}
        label="Country"
        options={COUNTRIES.map((c) => ({ value: c.code, label: c.name }))}
        autoComplete="country"
      />
      <Shell meta={fields.region} label="State or province (United States and Canada)">
        <select key={key} {...region} className={css.input} autoComplete="address-level1">
          <option value="">Not in the United States or Canada</option>
          <optgroup label="United States">
            {US_STATES.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </optgroup>
          <optgroup label="Canada">
            {CA_PROVINCES.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </optgroup>
        </select>
      </Shell>
    </>
  );
}
