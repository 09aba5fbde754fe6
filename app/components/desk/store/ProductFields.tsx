import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { PRODUCT_TYPES } from "~/shared/product-vocabulary";
import { Shell, TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";

interface ProductFieldsMeta {
  title: FieldMetadata<string | undefined>;
  productType: FieldMetadata<string | undefined>;
  topic: FieldMetadata<string | undefined>;
  /** Text or a list: the schema reads either. */
  authors: FieldMetadata<unknown>;
  summary: FieldMetadata<string | undefined>;
  description: FieldMetadata<string | undefined>;
  published: FieldMetadata<string | undefined>;
  /** Text or a number: the schema reads either. */
  pages: FieldMetadata<unknown>;
}

/** A choice among fixed options, with a first empty "Choose…" option. */
function Choice({
  meta,
  label,
  prompt,
  options,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  prompt: string;
  options: readonly string[];
}) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <Shell meta={meta} label={label}>
      <select key={key} {...props} className={forms.input}>
        <option value="">{prompt}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </Shell>
  );
}

/** A store product's fields, for a new product and for one being edited (ADR 091). */
export function ProductFields({ fields, topics }: { fields: ProductFieldsMeta; topics: string[] }) {
  return (
    <>
      <TextField meta={fields.title} label="Title" autoComplete="off" />
      <Choice meta={fields.productType} label="Product type" prompt="Choose a type" options={PRODUCT_TYPES} />
      <Choice meta={fields.topic} label="Topic" prompt="Choose a topic" options={topics} />
      <TextField
        meta={fields.authors as FieldMetadata<string | undefined>}
        label="Authors (optional)"
        autoComplete="off"
        hint="Their names as the cover shows them, separated by commas."
      />
      <TextAreaField meta={fields.summary} label="Summary" rows={3} hint="The lede under the title, and what search engines show." />
      <TextAreaField meta={fields.description} label="Description" rows={8} />
      <TextField meta={fields.published} label="Published" autoComplete="off" width="medium" hint="YYYY-MM-DD, such as 2026-03-10." />
      <TextField
        meta={fields.pages as FieldMetadata<string | undefined>}
        label="Pages"
        autoComplete="off"
        inputMode="numeric"
        width="short"
      />
    </>
  );
}
