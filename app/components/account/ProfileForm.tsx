import { getFormProps } from "@conform-to/react";
import type { profileSchema } from "~/app/lib/accounts/account-forms";
import { COMPANY_SIZES, INDUSTRIES, JOB_TITLES } from "~/app/lib/forms/choices";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { useFormHost, type FormFetcher } from "~/app/components/forms/form-host";
import { PasswordField, SelectField, TextField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";

const loadProfileSchema: SchemaLoader<typeof profileSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.profileSchema);

type ProfileValues = Record<Exclude<keyof typeof profileSchema.shape, "currentPassword">, string>;

/**
 * The profile form: on the account page (a <Form>, under its own heading), or as the sign-in
 * modal's profile settings screen when given the modal's fetcher (the modal's title is the heading).
 */
export function ProfileForm({
  profile,
  result,
  fetcher,
}: {
  profile: ProfileValues;
  result: Parameters<typeof useSpecForm>[2];
  fetcher?: FormFetcher;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm("profile", loadProfileSchema, result, profile);
  const { FormElement, viaField } = useFormHost(fetcher, "/my-account");
  return (
    <section aria-labelledby={fetcher ? undefined : "profile-heading"}>
      {fetcher ? null : <h2 id="profile-heading">Profile settings</h2>}
      <p>Every question here is optional; the answers help us choose what to show you.</p>
      <ErrorSummary items={summary} />
      <FormElement method="post" action="/my-account" {...getFormProps(form)} noValidate className={css.form}>
        <input type="hidden" name="intent" value="profile" />
        {viaField}
        <TextField meta={fields.displayName} label="Display name" autoComplete="nickname" />
        <TextField
          meta={fields.emailAddress}
          label="Email address"
          type="email"
          autoComplete="email"
          hint="A new address takes effect once you follow the link we send to it."
        />
        <PasswordField
          meta={fields.currentPassword}
          label="Your password"
          autoComplete="current-password"
          hint="Needed only to change your email address."
        />
        <SelectField meta={fields.industry} label="Industry" options={INDUSTRIES} />
        <SelectField meta={fields.jobTitle} label="Job title" options={JOB_TITLES} />
        <SelectField meta={fields.companySize} label="Company size" options={COMPANY_SIZES} />
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Save Profile
          </button>
        </div>
      </FormElement>
    </section>
  );
}
