import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Checkbox, Shell, TextAreaField, TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "./desk.css";

interface TopicFieldsMeta {
  name: FieldMetadata<string | undefined>;
  description: FieldMetadata<string | undefined>;
  subject: FieldMetadata<string | null | undefined>;
  subscriberOnly: FieldMetadata<boolean | undefined>;
  executiveOnly: FieldMetadata<boolean | undefined>;
}

/** A topic's fields, for a new topic and for one being edited (ADR 078). */
export function TopicFields({
  fields,
  subjects,
  flags,
  pageNote,
}: {
  fields: TopicFieldsMeta;
  /** The subjects it may belong to, by name. */
  subjects: string[];
  flags: { subscriberOnly: boolean; executiveOnly: boolean };
  /** What a rename does to the topic's page. */
  pageNote: string;
}) {
  const { key, ...selectProps } = getSelectProps(fields.subject as FieldMetadata<string | undefined>);
  return (
    <>
      <TextField meta={fields.name} label="Name" autoComplete="off" hint={`Letters, digits, spaces, hyphens and &. ${pageNote}`} />
      <TextAreaField
        meta={fields.description}
        label="Description"
        rows={4}
        hint="Shown on the topic's page and as its description for search engines."
      />
      <Shell meta={fields.subject as FieldMetadata<string | undefined>} label="Subject">
        <select key={key} {...selectProps} className={forms.input}>
          <option value="">None: this is a subject</option>
          {subjects.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </Shell>
      <fieldset className={css.fieldset}>
        <legend>Who may follow it</legend>
        <p className={forms.hint}>For a subject. A topic under a subject follows its subject&apos;s rule, whatever is ticked here.</p>
        <Checkbox meta={fields.subscriberOnly} defaultChecked={flags.subscriberOnly}>
          Subscribers only
        </Checkbox>
        <Checkbox meta={fields.executiveOnly} defaultChecked={flags.executiveOnly}>
          Executive subscribers only
        </Checkbox>
      </fieldset>
    </>
  );
}
