import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import {
  AVAILABILITY_STATE_NAMES,
  AVAILABILITY_STATES,
  LINE_TYPE_NAMES,
  LINE_TYPES,
  PREORDER_CHARGE_NAMES,
  PREORDER_CHARGES,
} from "~/shared/product-vocabulary";
import { Checkbox, Shell, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";

interface AvailabilityFieldsMeta {
  format: FieldMetadata<string | undefined>;
  code: FieldMetadata<string | undefined>;
  lineType: FieldMetadata<string | undefined>;
  language: FieldMetadata<string | undefined>;
  status: FieldMetadata<string | undefined>;
  availableDate: FieldMetadata<string | undefined>;
  preorderCharge: FieldMetadata<string | undefined>;
  permissionsAvailable: FieldMetadata<boolean | undefined>;
  volumePricing: FieldMetadata<boolean | undefined>;
}

function Options({
  meta,
  label,
  options,
  hint,
  blank = true,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: string;
  options: { value: string; label: string }[];
  /** Offer "Choose" first (a field with no default). */
  blank?: boolean;
}) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <Shell meta={meta} label={label} hint={hint}>
      <select key={key} {...props} className={forms.input}>
        {blank ? <option value="">Choose</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

/** A product format's fields (ADR 091): what it is, how it is delivered, and whether it is sold. */
export function AvailabilityFields({
  fields,
  chosen,
}: {
  fields: AvailabilityFieldsMeta;
  /** The flags as they are now, for the checkboxes' first state. */
  chosen: { permissionsAvailable: boolean; volumePricing: boolean };
}) {
  return (
    <>
      <TextField
        meta={fields.format}
        label="Format"
        autoComplete="off"
        hint="As shoppers see it: Hardcover, Paperback, Ebook, PDF, Slides."
      />
      <TextField
        meta={fields.code}
        label="Product-type code"
        autoComplete="off"
        width="short"
        hint="Three capital letters. KND and EPB are ebooks, BUN a bundle; PDF, HTM, ZIP, PPT and XLS are digital downloads; any other code (HBK, PBK) ships."
      />
      <Options
        meta={fields.lineType}
        label="Line type"
        options={LINE_TYPES.map((value) => ({ value, label: `${LINE_TYPE_NAMES[value]} (${value})` }))}
      />
      <TextField meta={fields.language} label="Language" autoComplete="off" />
      <Options
        meta={fields.status}
        label="Status"
        options={AVAILABILITY_STATES.map((value) => ({ value, label: AVAILABILITY_STATE_NAMES[value] }))}
      />
      <TextField
        meta={fields.availableDate}
        label="On sale from (for coming soon)"
        autoComplete="off"
        width="medium"
        hint="YYYY-MM-DD. Shoppers see “Available” and this date, and can pre-order it before."
      />
      <Options
        meta={fields.preorderCharge}
        label="Pre-orders are charged"
        options={PREORDER_CHARGES.map((value) => ({ value, label: PREORDER_CHARGE_NAMES[value] }))}
        hint="When it ships: the card is saved at checkout and charged on the date it goes on sale."
        blank={false}
      />
      <Checkbox
        meta={fields.permissionsAvailable}
        defaultChecked={chosen.permissionsAvailable}
        hint="Shoppers can buy the right to make copies."
      >
        Copyright permissions sold
      </Checkbox>
      <Checkbox
        meta={fields.volumePricing}
        defaultChecked={chosen.volumePricing}
        hint="10% off from 10 copies, 20% from 50, for formats that ship."
      >
        Volume pricing
      </Checkbox>
    </>
  );
}
