import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { useHydrated } from "~/app/components/useHydrated";
import { HONEYPOT_FIELD } from "~/app/lib/forms/honeypot";
import * as css from "./forms.css";

interface FieldShell {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  /** What to do about the error, after its message (e.g. a link). */
  errorHelp?: ReactNode;
  children: ReactNode;
}

/** Label, hint and inline error around a control (GOV.UK pattern: the error sits above the control). */
export function Shell({ meta, label, hint, errorHelp, children }: FieldShell) {
  const error = meta.errors?.[0];
  return (
    <div className={error ? `${css.field} ${css.withError}` : css.field}>
      <label className={css.label} htmlFor={meta.id}>
        {label}
      </label>
      {hint ? (
        <div id={meta.descriptionId} className={css.hint}>
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={meta.errorId} className={css.fieldError}>
          {error}
          {errorHelp ? <> {errorHelp}</> : null}
        </p>
      ) : null}
      {children}
    </div>
  );
}

interface TextFieldProps {
  meta: FieldMetadata<string | undefined>;
  label: string;
  type?: "text" | "email";
  hint?: ReactNode;
  autoComplete?: string;
  /** Mark the control invalid without a message of its own (the message is the form's). */
  flagged?: boolean;
  inputMode?: "numeric";
  errorHelp?: ReactNode;
  /** A box narrower than the form for a short answer (css.inputWidth); the form's width if not given. */
  width?: keyof typeof css.inputWidth;
}

export function TextField({ meta, label, type = "text", hint, autoComplete, flagged, inputMode, errorHelp, width }: TextFieldProps) {
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <Shell meta={meta} label={label} hint={hint} errorHelp={errorHelp}>
      <input
        key={key}
        {...props}
        aria-invalid={props["aria-invalid"] || flagged || undefined}
        className={width ? `${css.input} ${css.inputWidth[width]}` : css.input}
        autoComplete={autoComplete}
        inputMode={inputMode}
        spellCheck={false}
      />
    </Shell>
  );
}

/** Several lines of text (a biography, a description). */
export function TextAreaField({
  meta,
  label,
  hint,
  rows = 6,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  rows?: number;
}) {
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <Shell meta={meta} label={label} hint={hint}>
      <textarea key={key} {...props} rows={rows} className={css.textarea} />
    </Shell>
  );
}

/** A password input; with JS a Show / Hide button beside it (spec: show/hide toggle). */
export function PasswordField({
  meta,
  label,
  hint,
  autoComplete,
  autoFocus,
}: Omit<TextFieldProps, "type" | "flagged"> & { autoFocus?: boolean }) {
  const [visible, setVisible] = useState(false);
  const hydrated = useHydrated();
  const { key, ...props } = getInputProps(meta, { type: "password", value: false, ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <Shell meta={meta} label={label} hint={hint}>
      <div className={css.passwordRow}>
        {/* autoFocus only when the caller asks (SignInForm, after a failed attempt). */}
        <input
          key={key}
          {...props}
          type={visible ? "text" : "password"}
          className={css.input}
          autoComplete={autoComplete}
          spellCheck={false}
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus={autoFocus}
        />
        {hydrated ? (
          <button
            type="button"
            className={css.secondaryButton}
            aria-controls={meta.id}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? "Hide" : "Show"}
            <span className="visually-hidden"> password</span>
          </button>
        ) : null}
      </div>
    </Shell>
  );
}

/** A select; an option is its own label, or a value with a label (e.g. a country code and name). */
export function SelectField({
  meta,
  label,
  options,
  autoComplete,
  onChange,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  options: readonly (string | { value: string; label: string })[];
  autoComplete?: string;
  onChange?: (value: string) => void;
}) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <Shell meta={meta} label={label}>
      <select
        key={key}
        {...props}
        className={css.input}
        autoComplete={autoComplete}
        onChange={onChange && ((e) => onChange(e.currentTarget.value))}
      >
        <option value="">Select</option>
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </Shell>
  );
}

/** A checkbox with its label beside it and, when given, a hint under the label. */
export function Checkbox({
  meta,
  children,
  defaultChecked,
  hint,
}: {
  meta: FieldMetadata<string | boolean | undefined>;
  children: ReactNode;
  defaultChecked: boolean;
  hint?: ReactNode;
}) {
  const { key, ...props } = getInputProps(meta, { type: "checkbox", ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <div className={css.checkbox}>
      <input key={key} {...props} defaultChecked={meta.initialValue === undefined ? defaultChecked : props.defaultChecked} />
      <div className={css.field}>
        <label htmlFor={meta.id}>{children}</label>
        {hint ? (
          <div id={meta.descriptionId} className={css.hint}>
            {hint}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The field bots fill in and people never see. */
export function Honeypot() {
  return (
    <div className={css.honeypot} aria-hidden="true">
      <label htmlFor="hp-website">Leave this empty</label>
      <input id="hp-website" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
