import { getFormProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { Region } from "~/server/adapters/geo";
import { OPT_IN_DOMESTIC, OPT_IN_EU_CONSENT, OPT_IN_OTHER, USERNAME_UNAVAILABLE } from "~/app/lib/accounts/messages";
import type { registrationSchema } from "~/app/lib/accounts/account-forms";
import { primaryButton } from "~/app/components/controls.css";
import { CaptchaToken } from "~/app/components/forms/CaptchaToken";
import { ErrorSummary, unsummarised } from "~/app/components/forms/ErrorSummary";
import { useFormHost, type FormFetcher } from "~/app/components/forms/form-host";
import { Checkbox, Honeypot, PasswordField, TextField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";

const loadRegistrationSchema: SchemaLoader<typeof registrationSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.registrationSchema);
const loadModalRegistrationSchema: SchemaLoader<typeof registrationSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.modalRegistrationSchema);

/** The registration form: on its page (a <Form>), or in the sign-in modal when given the modal's fetcher. */
export function RegistrationForm({
  redirectTo,
  region,
  result,
  fetcher,
  defaultEmail,
  wallTag,
}: {
  redirectTo: string;
  region: Region;
  result: Parameters<typeof useSpecForm>[2];
  fetcher?: FormFetcher;
  /** Prefills the e-mail address (e.g. a guest's order e-mail). */
  defaultEmail?: string;
  /** On the registration wall: its A/B tag, which the meter funnel counts the account under (ADR 090). */
  wallTag?: string | null;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm(
    "register",
    fetcher ? loadModalRegistrationSchema : loadRegistrationSchema,
    result,
    defaultEmail ? { emailAddress: defaultEmail } : undefined,
  );
  const { FormElement, pending, viaField } = useFormHost(fetcher, "/register");
  const formError = unsummarised(form.errors, summary);
  return (
    <>
      <ErrorSummary items={summary} formErrorId={formError ? undefined : form.errorId} />
      <FormElement
        method="post"
        action={`/register?redirectTo=${encodeURIComponent(redirectTo)}${wallTag ? `&wallTag=${encodeURIComponent(wallTag)}` : ""}`}
        {...getFormProps(form)}
        noValidate
        className={css.form}
      >
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {wallTag ? <input type="hidden" name="wallTag" value={wallTag} /> : null}
        {viaField}
        <Honeypot />
        <CaptchaToken action="register" />
        {formError ? (
          <p className={css.formMessage} id={form.errorId}>
            {formError}
          </p>
        ) : null}
        <TextField meta={fields.firstName} label="First name" autoComplete="given-name" />
        <TextField meta={fields.lastName} label="Last name" autoComplete="family-name" />
        <TextField
          meta={fields.emailAddress}
          label="Email address"
          type="email"
          autoComplete="email"
          errorHelp={
            // Spec §8: the address is taken, most likely by the reader themselves.
            fields.emailAddress.errors?.[0] === USERNAME_UNAVAILABLE ? (
              <>
                Forgot your password? <Link to="/forgot-password">Reset it here</Link>.
              </>
            ) : undefined
          }
        />
        <PasswordField
          meta={fields.password}
          label="Password"
          autoComplete="new-password"
          hint="Use at least 10 characters (8 at the very least), with a number, an upper and a lower case letter, and one of @ ! # $ % ^ & + =. No spaces."
        />
        <Checkbox meta={fields.optIn} defaultChecked={region === "domestic"} hint={region === "eu" ? OPT_IN_EU_CONSENT : undefined}>
          {region === "domestic" ? OPT_IN_DOMESTIC : OPT_IN_OTHER}
        </Checkbox>
        <p className={css.hint}>
          By creating an account you accept our <Link to="/privacy-policy">privacy policy</Link>.
        </p>
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled || pending}>
            Create Account
          </button>
        </div>
      </FormElement>
    </>
  );
}
