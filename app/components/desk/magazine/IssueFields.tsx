import type { FieldMetadata } from "@conform-to/react";
import { SelectField, TextAreaField, TextField } from "~/app/components/forms/fields";

/** The months, as the month select offers them (the first month an issue covers). */
const MONTH_OPTIONS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
].map((label, index) => ({ value: String(index + 1), label }));

/** An issue's code, year, month, title and summary. */
export function IssueFields({
  fields,
  codeHint,
}: {
  fields: {
    code: FieldMetadata<string | undefined>;
    year: FieldMetadata<number | undefined>;
    month: FieldMetadata<number | undefined>;
    title: FieldMetadata<string | undefined>;
    summary: FieldMetadata<string | undefined>;
  };
  codeHint: string;
}) {
  return (
    <>
      <TextField meta={fields.code as FieldMetadata<string | undefined>} label="Code" hint={codeHint} autoComplete="off" />
      <TextField
        meta={fields.year as unknown as FieldMetadata<string | undefined>}
        label="Year"
        inputMode="numeric"
        autoComplete="off"
        width="short"
      />
      <SelectField
        meta={fields.month as unknown as FieldMetadata<string | undefined>}
        label="First month it covers"
        options={MONTH_OPTIONS}
      />
      <TextField meta={fields.title} label="Cover story" hint="The issue's title: its cover story's headline." autoComplete="off" />
      <TextAreaField meta={fields.summary} label="Summary" hint="Shown under the title on the archive and the issue's page." rows={4} />
    </>
  );
}
