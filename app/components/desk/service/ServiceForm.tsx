import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { REASON_MAX } from "~/shared/reader-service";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { errorSummary } from "~/app/components/forms/useSpecForm";
import * as forms from "~/app/components/forms/forms.css";
import { serviceFormId } from "./form-id";
import * as css from "./service.css";

/** What the page's action answered for a refused form: which form (intent and target), and its errors. */
export interface ServiceReply {
  intent: string;
  target: string;
  result: SubmissionResult<string[]>;
}

const replyFor = (reply: ServiceReply | null, intent: string, target: string) =>
  reply && reply.intent === intent && reply.target === target ? reply.result : null;

/** The page's error summary for the form the last post was refused for, its links going to that form's fields. */
export function ServiceErrorSummary({ reply }: { reply: ServiceReply | null }) {
  return <ErrorSummary items={reply ? errorSummary(serviceFormId(reply.intent, reply.target), reply.result) : []} />;
}

/**
 * One of customer service's forms on a reader's page: a plain post with the page's key, the
 * form's own fields, the reason (required, for the audit log) and its button. When the answer
 * was for this form, its messages show in it, and what was typed stays.
 */
export function ServiceForm({
  intent,
  target = "",
  formKey,
  reply,
  submit,
  hidden = {},
  children,
}: {
  intent: string;
  target?: string;
  formKey: string;
  reply: ServiceReply | null;
  submit: string;
  hidden?: Record<string, string>;
  children?: ReactNode;
}) {
  const id = serviceFormId(intent, target);
  const mine = replyFor(reply, intent, target);
  const reasonError = mine?.error?.reason?.[0];
  const formError = mine?.error?.[""]?.[0];
  const typed = (mine?.initialValue ?? {}) as Record<string, unknown>;
  return (
    <Form method="post" id={id} className={css.action} noValidate>
      {formError ? (
        <p className={forms.formMessage} id={`${id}-error`}>
          {formError}
        </p>
      ) : null}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="key" value={formKey} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <div className={forms.field}>
        <label className={forms.label} htmlFor={`${id}-reason`}>
          Reason
        </label>
        {reasonError ? (
          <p className={forms.fieldError} id={`${id}-reason-error`}>
            {reasonError}
          </p>
        ) : null}
        <textarea
          id={`${id}-reason`}
          name="reason"
          required
          maxLength={REASON_MAX}
          rows={2}
          className={css.reason}
          defaultValue={typeof typed.reason === "string" ? typed.reason : ""}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${id}-reason-error` : undefined}
        />
      </div>
      <div className={forms.actions}>
        <button type="submit" className={forms.secondaryButton}>
          {submit}
        </button>
      </div>
    </Form>
  );
}

/** A field's error from the form's reply, under its label. */
export function FieldError({
  reply,
  intent,
  target = "",
  name,
}: {
  reply: ServiceReply | null;
  intent: string;
  target?: string;
  name: string;
}) {
  const message = replyFor(reply, intent, target)?.error?.[name]?.[0];
  return message ? (
    <p className={forms.fieldError} id={`${serviceFormId(intent, target)}-${name}-error`}>
      {message}
    </p>
  ) : null;
}

/** How long an extension runs: a number and its unit. */
export function DurationFields({ reply, intent, target }: { reply: ServiceReply | null; intent: string; target: string }) {
  const id = serviceFormId(intent, target);
  return (
    <div className={forms.field}>
      <label className={forms.label} htmlFor={`${id}-amount`}>
        Extend by
      </label>
      <FieldError reply={reply} intent={intent} target={target} name="amount" />
      <div className={css.duration}>
        <input id={`${id}-amount`} name="amount" type="number" min={1} max={366} required defaultValue="1" className={forms.input} />
        <select name="unit" aria-label="Unit" defaultValue="months" className={forms.input}>
          <option value="days">days</option>
          <option value="months">months</option>
        </select>
      </div>
    </div>
  );
}
