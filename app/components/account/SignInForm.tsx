import { getFormProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect } from "react";
import { SIGN_IN_PENDING } from "~/app/lib/accounts/messages";
import type { signInSchema } from "~/app/lib/accounts/account-forms";
import { primaryButton } from "~/app/components/controls.css";
import { CaptchaToken } from "~/app/components/forms/CaptchaToken";
import { ErrorSummary, unsummarised } from "~/app/components/forms/ErrorSummary";
import { useFormHost, type FormFetcher } from "~/app/components/forms/form-host";
import { Honeypot, PasswordField, TextField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";

const loadSignInSchema: SchemaLoader<typeof signInSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.signInSchema);

/** The sign-in form: on its page (a <Form>), or in the sign-in modal when given the modal's fetcher. */
export function SignInForm({
  redirectTo,
  result,
  credentials,
  fetcher,
}: {
  redirectTo: string;
  result: Parameters<typeof useSpecForm>[2];
  credentials: boolean;
  fetcher?: FormFetcher;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm("sign-in", loadSignInSchema, result);
  const { FormElement, pending, viaField } = useFormHost(fetcher, "/sign-in");
  const formError = unsummarised(form.errors, summary);
  // Wrong email or password: focus goes to the password, to try again (the autofocus does this
  // on a page load without JS; with JS the form stays mounted, so each answer does it here).
  const passwordId = fields.password.id;
  useEffect(() => {
    if (credentials && result) document.getElementById(passwordId)?.focus();
  }, [credentials, result, passwordId]);
  return (
    <>
      <ErrorSummary
        items={summary}
        takeFocus={!credentials}
        formErrorId={formError ? undefined : form.errorId}
        formHelp={credentials ? <AccountHelp redirectTo={redirectTo} /> : null}
      />
      <FormElement
        method="post"
        action={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}
        {...getFormProps(form)}
        noValidate
        className={css.form}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {viaField}
        <Honeypot />
        <CaptchaToken action="sign_in" />
        {formError ? (
          <p className={css.formMessage} id={form.errorId}>
            {formError}
          </p>
        ) : null}
        <TextField meta={fields.username} label="Email address" type="email" autoComplete="username" flagged={credentials} />
        {/* After a wrong password the address stays filled in: the password is what to type next. */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <PasswordField meta={fields.password} label="Password" autoComplete="current-password" autoFocus={credentials} />
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled || pending}>
            {pending ? SIGN_IN_PENDING : "Sign In"}
          </button>
          <Link to="/forgot-password">Forgot your password?</Link>
        </div>
        <p>
          New to Meridian Review? <Link to={`/register?redirectTo=${encodeURIComponent(redirectTo)}`}>Create an account</Link>
        </p>
      </FormElement>
    </>
  );
}

/** After a wrong email or password: the two ways on. */
function AccountHelp({ redirectTo }: { redirectTo: string }) {
  return (
    <p>
      <Link to="/forgot-password">Reset your password</Link> or{" "}
      <Link to={`/register?redirectTo=${encodeURIComponent(redirectTo)}`}>create an account</Link>.
    </p>
  );
}
