import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { changePassword } from "../../server/accounts/change-password";
import { updateProfile } from "../../server/accounts/users";
import { primaryButton } from "../components/controls.css";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { HelpBox } from "../components/HelpBox";
import { fromModal, useFormHost, type FormFetcher } from "../components/forms/form-host";
import { PasswordField, SelectField, TextField } from "../components/forms/fields";
import * as css from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import * as prose from "../components/prose.css";
import { CURRENT_PASSWORD_INVALID, PASSWORD_CHANGED, USERNAME_UNAVAILABLE } from "../lib/account-messages";
import { db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { changePasswordSchema, COMPANY_SIZES, INDUSTRIES, JOB_TITLES, profileSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { requireUser, sessionToken } from "../lib/session.server";
import type { RootData } from "../root";

const PROFILE_SAVED = "Your profile has been saved.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const updated = new URL(request.url).searchParams.get("updated");
  return {
    profile: {
      displayName: user.displayName,
      emailAddress: user.email,
      industry: user.industry,
      jobTitle: user.jobTitle,
      companySize: user.companySize,
    },
    name: `${user.firstName} ${user.lastName}`,
    notice: updated === "password" ? PASSWORD_CHANGED : updated === "profile" ? PROFILE_SAVED : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "password") {
    const submission = parseWithZod(form, { schema: changePasswordSchema });
    if (submission.status !== "success") return rejectForm(submission, {}, 400, { intent: "password" as const });
    const token = (await sessionToken(request))!;
    const outcome = await changePassword(await db(), user, submission.value.currentPassword, submission.value.newPassword, token);
    if (outcome === "wrong-current") {
      return rejectForm(submission, { fieldErrors: { currentPassword: [CURRENT_PASSWORD_INVALID] } }, 400, { intent: "password" as const });
    }
    return redirect("/my-account?updated=password", 303);
  }
  const submission = parseWithZod(form, { schema: profileSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, { intent: "profile" as const });
  const saved = await updateProfile(await db(), user.id, {
    displayName: submission.value.displayName,
    email: submission.value.emailAddress,
    industry: submission.value.industry,
    jobTitle: submission.value.jobTitle,
    companySize: submission.value.companySize,
  });
  if (!saved) return rejectForm(submission, { fieldErrors: { emailAddress: [USERNAME_UNAVAILABLE] } }, 409, { intent: "profile" as const });
  // From the sign-in modal: it closes itself.
  if (fromModal(form)) return { intent: "profile" as const, saved: true as const };
  return redirect("/my-account?updated=profile", 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, { title: "My account", description: "Your profile and password.", path: "/my-account" });

export default function MyAccount() {
  const { profile, name, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>My account</h1>
      <p>Signed in as {name}.</p>
      <HelpBox id="firmographics" />
      {notice ? (
        <p className={css.success} role="status">
          {notice}
        </p>
      ) : null}
      <ProfileForm profile={profile} result={actionData?.intent === "profile" && "result" in actionData ? actionData.result : undefined} />
      <ChangePasswordForm result={actionData?.intent === "password" ? actionData.result : undefined} />
      <SubscriberLinks />
    </div>
  );
}

type Result = Parameters<typeof useSpecForm>[2];

/**
 * The profile form: on the account page (a <Form>, under its own heading), or as the sign-in
 * modal's profile settings screen when given the modal's fetcher (the modal's title is the heading).
 */
export function ProfileForm({ profile, result, fetcher }: { profile: Record<keyof typeof profileSchema.shape, string>; result: Result; fetcher?: FormFetcher }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("profile", profileSchema, result, profile);
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
        <TextField meta={fields.emailAddress} label="Email address" type="email" autoComplete="email" />
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

export function ChangePasswordForm({ result }: { result: Result }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("change-password", changePasswordSchema, result);
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <ErrorSummary items={summary} />
      <Form method="post" action="/my-account" {...getFormProps(form)} noValidate className={css.form}>
        <input type="hidden" name="intent" value="password" />
        <PasswordField meta={fields.currentPassword} label="Current password" autoComplete="current-password" />
        <PasswordField meta={fields.newPassword} label="New password" autoComplete="new-password" />
        <PasswordField meta={fields.confirmPassword} label="Confirm new password" autoComplete="new-password" />
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Change Password
          </button>
        </div>
      </Form>
    </section>
  );
}

/** A subscriber's gift links and notes, each on a page of its own. */
function SubscriberLinks() {
  if (!useRouteLoaderData<RootData>("root")?.subscriber) return null;
  return (
    <section aria-labelledby="subscriber-heading">
      <h2 id="subscriber-heading">Gifts and notes</h2>
      <ul>
        <li>
          <Link to="/my-account/gifts">Your gift links</Link>
        </li>
        <li>
          <Link to="/my-account/notes">Your notes</Link>
        </li>
      </ul>
    </section>
  );
}
