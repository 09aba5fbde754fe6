import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { PRODUCT_TYPES } from "~/shared/product-vocabulary";
import { Shell, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";

// The fields of promo codes and vouchers at the desk (ADR 091).

/** Text or a number: the schemas read either. */
type Loose = FieldMetadata<unknown>;
const text = (meta: Loose) => meta as FieldMetadata<string | undefined>;

interface LimitsMeta {
  startsOn: FieldMetadata<string | undefined>;
  endsOn: FieldMetadata<string | undefined>;
  maxUses: Loose;
  maxUsesPerReader: Loose;
}

/** When an offer works and how often: the dates (UTC days) and the limits on uses. */
function Limits({
  fields,
  startsLabel,
  startsHint,
  usesLabel,
  usesHint,
}: {
  fields: LimitsMeta;
  startsLabel: string;
  startsHint: ReactNode;
  usesLabel: string;
  usesHint: ReactNode;
}) {
  return (
    <>
      <TextField meta={fields.startsOn} label={startsLabel} autoComplete="off" width="medium" hint={startsHint} />
      <TextField
        meta={fields.endsOn}
        label="Last day (optional)"
        autoComplete="off"
        width="medium"
        hint="YYYY-MM-DD, in UTC: it works to the end of that day."
      />
      <TextField meta={text(fields.maxUses)} label={usesLabel} autoComplete="off" inputMode="numeric" width="short" hint={usesHint} />
      <TextField
        meta={text(fields.maxUsesPerReader)}
        label="Uses per reader (optional)"
        autoComplete="off"
        inputMode="numeric"
        width="short"
        hint="How many of one reader's orders may use it (a guest is known by their e-mail address). Empty: no limit."
      />
    </>
  );
}

interface PromoMeta extends LimitsMeta {
  description: FieldMetadata<string | undefined>;
  percentOff: Loose;
  amountOff: Loose;
  productType: FieldMetadata<string | undefined>;
  products: Loose;
}

/** A promo code's terms: what it takes off, of what, when and how often. */
export function PromoFields({
  fields,
  products,
  chosenProducts,
}: {
  fields: PromoMeta;
  products: { id: number; title: string }[];
  /** The products it is limited to now. */
  chosenProducts: number[];
}) {
  const { key, ...typeProps } = getSelectProps(fields.productType);
  // After a refused post, the products chosen in it; else those the code has.
  const submitted = fields.products.initialValue;
  const chosen = submitted === undefined ? chosenProducts.map(String) : [submitted].flat().map(String);
  const productsError = fields.products.errors?.[0];
  return (
    <>
      <TextField
        meta={fields.description}
        label="Description"
        autoComplete="off"
        hint="What the shopper is told when it applies: “Promo code CODE applied: this.”"
      />
      <TextField
        meta={text(fields.percentOff)}
        label="Percentage off"
        autoComplete="off"
        inputMode="numeric"
        width="short"
        hint="A whole number from 1 to 100. Or leave it empty and give an amount off."
      />
      <TextField
        meta={text(fields.amountOff)}
        label="Amount off (US dollars)"
        autoComplete="off"
        width="medium"
        hint="Such as 5.00, off what it applies to."
      />
      <Shell meta={fields.productType} label="Only items of this type (optional)">
        <select key={key} {...typeProps} className={forms.input}>
          <option value="">Every type</option>
          {PRODUCT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </Shell>
      <div className={productsError ? `${forms.field} ${forms.withError}` : forms.field}>
        <label className={forms.label} htmlFor={fields.products.id}>
          Only these products (optional)
        </label>
        <span className={forms.hint} id={fields.products.descriptionId}>
          Choose none for every product. To choose several, hold Ctrl (or ⌘) as you click.
        </span>
        {productsError ? (
          <p className={forms.fieldError} id={fields.products.errorId}>
            {productsError}
          </p>
        ) : null}
        <select
          id={fields.products.id}
          name={fields.products.name}
          multiple
          size={8}
          defaultValue={chosen}
          className={forms.input}
          aria-describedby={productsError ? `${fields.products.errorId} ${fields.products.descriptionId}` : fields.products.descriptionId}
          aria-invalid={productsError ? true : undefined}
        >
          {products.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.title}
            </option>
          ))}
        </select>
      </div>
      <Limits
        fields={fields}
        startsLabel="First day"
        startsHint="YYYY-MM-DD, in UTC: it works from the start of that day."
        usesLabel="Uses in all (optional)"
        usesHint="How many orders may use it, counting each order that holds it (an order cancelled or refunded in full gives its use back). Empty: no limit."
      />
    </>
  );
}

interface VoucherMeta extends LimitsMeta {
  availability: Loose;
}

/** A voucher's terms: what it gives, when and how often. */
export function VoucherFields({ fields, items }: { fields: VoucherMeta; items: { availabilityId: number; label: string }[] }) {
  const meta = text(fields.availability);
  const { key, ...props } = getSelectProps(meta);
  return (
    <>
      <Shell meta={meta} label="What it gives">
        <select key={key} {...props} className={forms.input}>
          <option value="">Choose a format</option>
          {items.map((item) => (
            <option key={item.availabilityId} value={String(item.availabilityId)}>
              {item.label}
            </option>
          ))}
        </select>
      </Shell>
      <Limits
        fields={fields}
        startsLabel="First day (optional)"
        startsHint="YYYY-MM-DD, in UTC: it can be redeemed from the start of that day. Empty: at once."
        usesLabel="Uses in all"
        usesHint="How many orders it may give in all: 1 for a gift. An order refunded in full gives its use back."
      />
    </>
  );
}
