import { useForm, type Submission, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import type { z, ZodTypeAny } from "zod";
import type { SummaryItem } from "./ErrorSummary";

/**
 * Where a form's schema comes from in the browser: a dynamic import of its module, so zod and
 * the schemas load after the page has hydrated instead of with it (ADR 047). Keep it stable: a
 * module-level function, or memoised on what it depends on.
 */
export type SchemaLoader<Schema extends ZodTypeAny> = () => Promise<Schema>;

type Validate<Schema extends ZodTypeAny> = (formData: FormData) => Submission<z.input<Schema>, string[], z.output<Schema>>;

/**
 * conform's form state with the spec's behaviour: validation on blur, then on every change
 * once a field has an error; the submit button is disabled (with JS) until the values pass
 * the schema. Without JS the server answers with the same schema's messages, and so it does
 * for a form sent in the moment before the schema has loaded; fields left in that moment are
 * checked as soon as it has.
 */
export function useSpecForm<Schema extends ZodTypeAny>(
  id: string,
  loadSchema: SchemaLoader<Schema>,
  lastResult: SubmissionResult<string[]> | null | undefined,
  /** Each field's text; a list of rows (an issue's features) is a list of such records. */
  defaultValue?: Partial<Record<keyof z.input<Schema>, string | Record<string, string>[]>>,
) {
  const validate = useValidator(loadSchema);
  const [form, fields] = useForm<z.input<Schema>>({
    id,
    lastResult,
    // conform types this as a deep partial of the schema's input; the forms here are strings, or lists of rows of them.
    defaultValue: defaultValue as never,
    // Until the schema is there, nothing validates before the submit: conform would otherwise
    // send the form to the server to validate a field on blur.
    shouldValidate: validate ? "onBlur" : "onSubmit",
    shouldRevalidate: validate ? "onInput" : "onSubmit",
    onValidate: validate && (({ formData }) => validate(formData)),
  });
  useLateChecks(form.id, validate, form.validate);
  const valid = useDomValidity(form.id, validate);
  return { form, fields, summary: errorSummary(form.id, lastResult), submitDisabled: valid === false };
}

/** The server's errors for a form, each linking to its field: for an ErrorSummary placed apart from the form. */
export function errorSummary(formId: string, lastResult: SubmissionResult<string[]> | null | undefined): SummaryItem[] {
  const summary: SummaryItem[] = [];
  for (const [name, messages] of Object.entries(lastResult?.error ?? {})) {
    for (const message of messages ?? []) summary.push({ fieldId: name ? `${formId}-${name}` : undefined, message });
  }
  return summary;
}

/** The form's validation once its schema and conform's zod adapter have loaded; undefined before. */
function useValidator<Schema extends ZodTypeAny>(loadSchema: SchemaLoader<Schema>): Validate<Schema> | undefined {
  const [validate, setValidate] = useState<Validate<Schema>>();
  useEffect(() => {
    let current = true;
    Promise.all([loadSchema(), import("@conform-to/zod")]).then(
      ([schema, { parseWithZod }]) => {
        if (current) setValidate(() => (formData: FormData) => parseWithZod(formData, { schema }));
      },
      () => {}, // a chunk that failed to load leaves validation to the server, as without JS
    );
    return () => {
      current = false;
    };
  }, [loadSchema]);
  return validate;
}

function isNamedControl(target: EventTarget | null): target is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  return (
    (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) &&
    target.name !== ""
  );
}

/**
 * The fields a reader left, or typed into before the page's scripts ran, while the schema was
 * loading are checked once it has loaded, as leaving them would have been. Then the form says
 * that the browser checks it (data-schema="loaded", which browser tests wait for).
 */
function useLateChecks(formId: string, validate: Validate<ZodTypeAny> | undefined, checkField: (field: { name: string }) => void) {
  const left = useRef(new Set<string>());
  useEffect(() => {
    if (!validate) {
      const record = (event: FocusEvent) => {
        if (isNamedControl(event.target) && event.target.form?.id === formId) left.current.add(event.target.name);
      };
      document.addEventListener("focusout", record);
      return () => document.removeEventListener("focusout", record);
    }
    const element = document.getElementById(formId);
    if (!(element instanceof HTMLFormElement)) return;
    for (const control of element.elements) {
      const typedIn =
        (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) && control.value !== control.defaultValue;
      if (isNamedControl(control) && typedIn && control !== document.activeElement) left.current.add(control.name);
    }
    for (const name of left.current) checkField({ name });
    left.current.clear();
    element.dataset.schema = "loaded";
  }, [formId, validate, checkField]);
}

/**
 * Whether the form's current values pass the schema, read from the form element itself (so
 * text typed before the page's scripts ran counts too). Undefined until the schema has loaded,
 * so the server-rendered button is never disabled.
 */
function useDomValidity(formId: string, validate: Validate<ZodTypeAny> | undefined): boolean | undefined {
  const [valid, setValid] = useState<boolean>();
  useEffect(() => {
    const element = document.getElementById(formId);
    if (!validate || !(element instanceof HTMLFormElement)) return;
    const check = () => setValid(validate(new FormData(element)).status === "success");
    check();
    element.addEventListener("input", check);
    element.addEventListener("change", check);
    return () => {
      element.removeEventListener("input", check);
      element.removeEventListener("change", check);
    };
  }, [formId, validate]);
  return valid;
}
