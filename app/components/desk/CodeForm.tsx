import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { TextField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import type { codeSchema, enrolCodeSchema } from "~/app/lib/desk/desk-forms";

const loadCodeSchema: SchemaLoader<typeof codeSchema> = () => import("~/app/lib/desk/desk-forms").then((m) => m.codeSchema);
const loadEnrolSchema: SchemaLoader<typeof enrolCodeSchema> = () => import("~/app/lib/desk/desk-forms").then((m) => m.enrolCodeSchema);

type Result = Parameters<typeof useSpecForm>[2];

/** The desk's door: a code from the app, or a recovery code. */
export function DoorCodeForm({ redirectTo, result }: { redirectTo: string; result: Result }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("desk-code", loadCodeSchema, result);
  return (
    <>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          meta={fields.code}
          label="Code"
          hint="The 6-digit code your authenticator app shows for Meridian Review, or one of your recovery codes."
          autoComplete="one-time-code"
        />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Enter the desk
          </button>
        </div>
      </Form>
    </>
  );
}

/** Enrolment's last step: a code from the secret just shown. */
export function EnrolCodeForm({ action, result }: { action: string; result: Result }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("desk-enrol", loadEnrolSchema, result);
  return (
    <>
      <ErrorSummary items={summary} />
      <Form method="post" action={action} {...getFormProps(form)} noValidate className={forms.form}>
        <TextField
          meta={fields.code}
          label="Code from your app"
          hint="Six digits; a new one every 30 seconds."
          autoComplete="one-time-code"
          inputMode="numeric"
          width="medium"
        />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Set up and enter the desk
          </button>
        </div>
      </Form>
    </>
  );
}
