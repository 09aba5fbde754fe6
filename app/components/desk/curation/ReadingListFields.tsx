import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "./curation.css";

/** A reading list's title, slug and description. */
export function ReadingListFields({
  fields,
}: {
  fields: {
    name: FieldMetadata<string | undefined>;
    slug: FieldMetadata<string | undefined>;
    description: FieldMetadata<string | undefined>;
  };
}) {
  const description = fields.description;
  const error = description.errors?.[0];
  return (
    <>
      <TextField meta={fields.name} label="Title" />
      <TextField
        meta={fields.slug}
        label="Slug"
        hint="The list's address: /reading-lists/ then this. Lowercase letters, digits and single hyphens."
      />
      <div className={error ? `${forms.field} ${forms.withError}` : forms.field}>
        <label className={forms.label} htmlFor={description.id}>
          Description
        </label>
        {error ? (
          <p id={description.errorId} className={forms.fieldError}>
            {error}
          </p>
        ) : null}
        <textarea
          id={description.id}
          name={description.name}
          defaultValue={typeof description.initialValue === "string" ? description.initialValue : ""}
          rows={4}
          maxLength={2000}
          className={`${forms.input} ${css.textarea}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? description.errorId : undefined}
        />
      </div>
    </>
  );
}
