import type { emailShareSchema } from "~/app/lib/content/share-form";
import { TextField } from "~/app/components/forms/fields";
import type { SchemaLoader, useSpecForm } from "~/app/components/forms/useSpecForm";

/** The e-mail share form's schema, for the share page and the share flyout. */
export const loadEmailShareSchema: SchemaLoader<typeof emailShareSchema> = () =>
  import("~/app/lib/content/share-form").then((forms) => forms.emailShareSchema);

type EmailShareFields = ReturnType<typeof useSpecForm<typeof emailShareSchema>>["fields"];

/** The e-mail share form's inputs, the same on the share page and in the share flyout. */
export function EmailShareInputs({ fields, item }: { fields: EmailShareFields; item: { type: string; id: number } }) {
  return (
    <>
      <input type="hidden" name="intent" value="email" />
      <input type="hidden" name="type" value={item.type} />
      <input type="hidden" name="id" value={item.id} />
      <TextField meta={fields.from} label="Your email address" type="email" autoComplete="email" />
      <TextField meta={fields.sharedWith} label="Send to" hint="Email addresses, separated by commas (up to 10)" />
      <TextField meta={fields.description} label="Message (optional)" />
    </>
  );
}
