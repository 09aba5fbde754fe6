import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import type { SavedVersion } from "~/app/lib/desk/catalogue.server";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary, unsummarised, type SummaryItem } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { RowFacts } from "./RowFacts";
import * as css from "./desk.css";

// The forms of the desk's author, topic, video and episode pages (ADRs 078, 083): the one that adds a row and the one
// that changes it, which carries the version it was opened at.

/** What useSpecForm gives a page, but the fields, which the page lays out itself. */
interface Spec<Fields extends Record<string, unknown>> {
  form: FormMetadata<Fields, string[]>;
  summary: SummaryItem[];
  submitDisabled: boolean;
}

interface CatalogueFormProps<Fields extends Record<string, unknown>> {
  spec: Spec<Fields>;
  /** The version a save is made over; none for a new row. */
  version?: number;
  button: string;
  children: ReactNode;
}

/** A plain post that works without JS: the errors above it, the fields, and one submit button. */
export function CatalogueForm<Fields extends Record<string, unknown>>({
  spec: { form, summary, submitDisabled },
  version,
  button,
  children,
}: CatalogueFormProps<Fields>) {
  // The form's own error: a stale save's message.
  const message = unsummarised(form.errors, summary);
  return (
    <>
      <ErrorSummary items={summary} formErrorId={message ? undefined : form.errorId} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        {version === undefined ? null : <input type="hidden" name="version" value={version} />}
        {message ? (
          <p className={forms.formMessage} id={form.errorId}>
            {message}
          </p>
        ) : null}
        {children}
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            {button}
          </button>
        </div>
      </Form>
    </>
  );
}

/**
 * One row's page below its heading: the notice of the save just made, the form (for those who may
 * edit), and beside it the version saved since the form was opened, after a refused save, or
 * facts about the row.
 */
export function CatalogueEditor<Fields extends Record<string, unknown>>({
  noun,
  saved,
  mayEdit,
  stale,
  about,
  version,
  ...form
}: Omit<CatalogueFormProps<Fields>, "version"> & {
  /** What the row is, as "Edit the {noun}" says it. */
  noun: string;
  saved: string | null;
  mayEdit: boolean;
  stale: SavedVersion | null;
  /** What the page says of the row when no save was refused. */
  about: ReactNode;
  /** The version the page was opened at. */
  version: number;
}) {
  return (
    <>
      {saved ? (
        <p className={forms.success} role="status">
          {saved}
        </p>
      ) : null}
      <div className={css.editor}>
        {mayEdit ? (
          <section aria-labelledby="edit-heading">
            <h2 id="edit-heading" className="visually-hidden">
              Edit the {noun}
            </h2>
            {/* After a refused save, the version now saved: saving again replaces it, knowingly. */}
            <CatalogueForm {...form} version={stale?.version ?? version} />
          </section>
        ) : null}
        {stale ? <RowFacts stale title={`Saved since you opened it (version ${stale.version})`} facts={stale.facts} /> : about}
      </div>
    </>
  );
}
