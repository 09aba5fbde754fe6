import { getFormProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { forgotPasswordSchema } from "~/app/lib/accounts/account-forms";
import { primaryButton } from "~/app/components/controls.css";
import { CaptchaToken } from "~/app/components/forms/CaptchaToken";
import { ErrorSummary, unsummarised } from "~/app/components/forms/ErrorSummary";
import { useFormHost, type FormFetcher } from "~/app/components/forms/form-host";
import { Honeypot, TextField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";

const loadForgotPasswordSchema: SchemaLoader<typeof forgotPasswordSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.forgotPasswordSchema);

/** The forgot-password form: on its page (a <Form>), or in the sign-in modal when given the modal's fetcher. */
export function ForgotPasswordForm({ result, fetcher }: { result: Parameters<typeof useSpecForm>[2]; fetcher?: FormFetcher }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("forgot-password", loadForgotPasswordSchema, result);
  const { FormElement, viaField } = useFormHost(fetcher, "/forgot-password");
  const formError = unsummarised(form.errors, summary);
  return (
    <>
      <ErrorSummary items={summary} formErrorId={formError ? undefined : form.errorId} />
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      <FormElement method="post" action="/forgot-password" {...getFormProps(form)} noValidate className={css.form}>
        {viaField}
        <Honeypot />
        <CaptchaToken action="forgot_password" />
        {formError ? (
          <p className={css.formMessage} id={form.errorId}>
            {formError}
          </p>
        ) : null}
        <TextField meta={fields.emailAddress} label="Email address" type="email" autoComplete="email" />
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Send Reset Link
          </button>
          <Link to="/sign-in">Back to sign in</Link>
        </div>
      </FormElement>
    </>
  );
}
