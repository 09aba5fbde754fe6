import { Form } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import * as css from "../picture-editor.css";

/**
 * One file of a video or episode (ADR 083): what readers get now, and a form that uploads a new
 * one (multipart, no script needed). `intent` tells the page's action which file it is.
 */
export function MediaUpload({
  intent,
  title,
  label,
  accept,
  rules,
  now,
  error,
}: {
  intent: string;
  title: string;
  label: string;
  accept: string;
  /** What the file may be and how large. */
  rules: string;
  /** What readers get now. */
  now: string;
  error: string | null;
}) {
  const errorId = `${intent}-error`;
  const hintId = `${intent}-file-hint`;
  return (
    <section aria-labelledby={`${intent}-heading`} className={prose.section}>
      <h2 id={`${intent}-heading`}>{title}</h2>
      <p>{now}</p>
      {error ? (
        <p className={forms.formMessage} role="alert" id={errorId}>
          {error}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className={forms.form} aria-describedby={error ? errorId : undefined}>
        <input type="hidden" name="intent" value={intent} />
        <div className={forms.field}>
          <label className={forms.label} htmlFor={`${intent}-file`}>
            {label}
          </label>
          <span className={forms.hint} id={hintId}>
            {rules} It is judged by its content, not its name.
          </span>
          <input
            id={`${intent}-file`}
            className={css.fileInput}
            type="file"
            name="file"
            accept={accept}
            required
            aria-describedby={hintId}
          />
        </div>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Upload
          </button>
        </div>
      </Form>
    </section>
  );
}
