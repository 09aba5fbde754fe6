import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useEffect, useState } from "react";
import type { z, ZodTypeAny } from "zod";
import type { SummaryItem } from "./ErrorSummary";

/**
 * conform's form state with the spec's behaviour: validation on blur, then on every change
 * once a field has an error; the submit button is disabled (with JS) until the values pass
 * the schema. Without JS the server answers with the same schema's messages.
 */
export function useSpecForm<Schema extends ZodTypeAny>(
  id: string,
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Partial<Record<keyof z.input<Schema>, string>>,
) {
  const [form, fields] = useForm<z.input<Schema>>({
    id,
    lastResult,
    // conform types this as a deep partial of the schema's input; the forms here are flat strings.
    defaultValue: defaultValue as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const valid = useDomValidity(form.id, schema);
  const summary: SummaryItem[] = [];
  for (const [name, messages] of Object.entries(lastResult?.error ?? {})) {
    for (const message of messages ?? []) summary.push({ fieldId: name ? `${form.id}-${name}` : undefined, message });
  }
  return { form, fields, summary, submitDisabled: valid === false };
}

/**
 * Whether the form's current values pass the schema, read from the form element itself (so
 * text typed before the page's scripts ran counts too). Undefined until hydrated, so the
 * server-rendered button is never disabled.
 */
function useDomValidity(formId: string, schema: ZodTypeAny): boolean | undefined {
  const [valid, setValid] = useState<boolean>();
  useEffect(() => {
    const element = document.getElementById(formId);
    if (!(element instanceof HTMLFormElement)) return;
    const check = () => setValid(parseWithZod(new FormData(element), { schema }).status === "success");
    check();
    element.addEventListener("input", check);
    element.addEventListener("change", check);
    return () => {
      element.removeEventListener("input", check);
      element.removeEventListener("change", check);
    };
  }, [formId, schema]);
  return valid;
}
