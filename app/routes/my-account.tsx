import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Form, Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { changePassword, checkCurrentPassword, type CurrentPasswordCheck } from "../../server/accounts/change-password";
import { pendingEmailFor, requestEmailChange, type AddressRefusal } from "../../server/accounts/email-change";
import { EMAIL_LINK_HOURS } from "../../shared/email-change";
import { normalizeEmail, updateProfile, type User } from "../../server/accounts/users";
import { primaryButton } from "../components/controls.css";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { HelpBox } from "../components/HelpBox";
import { fromModal, useFormHost, type FormFetcher } from "../components/forms/form-host";
import { PasswordField, SelectField, TextField } from "../components/forms/fields";
import * as css from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import * as prose from "../components/prose.css";
import {
  accountBlocked,
  ADDRESS_BLOCKED,
  CURRENT_PASSWORD_INVALID,
  CURRENT_PASSWORD_REQUIRED,
  PASSWORD_CHANGED,
  tooManyAttempts,
  USERNAME_UNAVAILABLE,
} from "../lib/account-messages";
import { sendEmailConfirmation, sendPasswordChangedNotice } from "../lib/account-mail.server";
import { lockoutRules, rateLimit } from "../lib/auth.server";
import { db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { changePasswordSchema, COMPANY_SIZES, INDUSTRIES, JOB_TITLES, profileSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { requireUser, sessionToken } from "../lib/session.server";
import { GENERIC_ERROR } from "../lib/site";
import type { RootData } from "../root";

const PROFILE_SAVED = "Your profile has been saved.";

const pendingNotice = (email: string) =>
  `We have sent a link to ${email}. Your email address changes when you follow it (within ${EMAIL_LINK_HOURS} hours); until then, keep signing in with your current address.`;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const updated = new URL(request.url).searchParams.get("updated");
  const pendingEmail = await pendingEmailFor(await db(), user);
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
    pendingNotice: pendingEmail ? pendingNotice(pendingEmail) : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  return form.get("intent") === "password" ? changePasswordAction(request, context, form, user) : saveProfileAction(request, context, form, user);
}

type PasswordProblem = { status: number; message: string };

/** The current-password question is limited like sign-in: first a rate limit per account and client address… */
async function rateLimitProblem(request: Request, context: AppLoadContext, user: User): Promise<PasswordProblem | undefined> {
  const limited = await rateLimit(request, context, "current-password", user.email);
  return limited.allowed ? undefined : { status: 429, message: tooManyAttempts(limited.retryAfterSeconds) };
}

/** …then the sign-in lockout itself (checkCurrentPassword). */
function checkProblem(checked: CurrentPasswordCheck | { outcome: "changed" }): PasswordProblem | undefined {
  if (checked.outcome === "locked") return { status: 423, message: accountBlocked(checked.lockoutSeconds) };
  if (checked.outcome === "wrong-current") return { status: 400, message: CURRENT_PASSWORD_INVALID };
  return undefined;
}

async function changePasswordAction(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const intent = { intent: "password" as const };
  const submission = parseWithZod(form, { schema: changePasswordSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, intent);
  const token = (await sessionToken(request))!;
  const problem =
    (await rateLimitProblem(request, context, user)) ??
    checkProblem(
      await changePassword(await db(), user, { current: submission.value.currentPassword, next: submission.value.newPassword }, token, lockoutRules()),
    );
  if (problem) return rejectForm(submission, { fieldErrors: { currentPassword: [problem.message] } }, problem.status, intent);
  await sendPasswordChangedNotice(user);
  return redirect("/my-account?updated=password", 303);
}

const REFUSALS: Record<AddressRefusal, PasswordProblem> = {
  taken: { status: 409, message: USERNAME_UNAVAILABLE },
  "print-subscriber": { status: 409, message: USERNAME_UNAVAILABLE },
  restricted: { status: 403, message: ADDRESS_BLOCKED },
};

async function saveProfileAction(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const intent = { intent: "profile" as const };
  const submission = parseWithZod(form, { schema: profileSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, intent);
  const value = submission.value;
  const changesEmail = normalizeEmail(value.emailAddress) !== user.email;
  if (changesEmail) {
    // A new address needs the current password, and takes effect only from the mailed link.
    if (!value.currentPassword) return rejectForm(submission, { fieldErrors: { currentPassword: [CURRENT_PASSWORD_REQUIRED] } }, 400, intent);
    const problem =
      (await rateLimitProblem(request, context, user)) ?? checkProblem(await checkCurrentPassword(await db(), user, value.currentPassword, lockoutRules()));
    if (problem) return rejectForm(submission, { fieldErrors: { currentPassword: [problem.message] } }, problem.status, intent);
    const change = await requestEmailChange(await db(), user, value.emailAddress);
    if (change.outcome === "refused") {
      const refusal = REFUSALS[change.reason];
      return rejectForm(submission, { fieldErrors: { emailAddress: [refusal.message] } }, refusal.status, intent);
    }
    if (change.outcome === "sent" && !(await sendEmailConfirmation(user, change.email, change.token, "change"))) {
      return rejectForm(submission, { fieldErrors: { emailAddress: [GENERIC_ERROR] } }, 503, intent);
    }
  }
  await updateProfile(await db(), user.id, {
    displayName: value.displayName,
    industry: value.industry,
    jobTitle: value.jobTitle,
    companySize: value.companySize,
  });
  // From the sign-in modal: it closes itself.
  if (fromModal(form)) return { intent: "profile" as const, saved: true as const };
  return redirect(`/my-account?updated=${changesEmail ? "email-sent" : "profile"}`, 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, { title: "My account", description: "Your profile and password.", path: "/my-account" });

export default function MyAccount() {
  const { profile, name, notice, pendingNotice } = useLoaderData<typeof loader>();
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
      {pendingNotice ? (
        <p className={css.success} role="status">
          {pendingNotice}
        </p>
      ) : null}
      {/* A new pending address remounts the form, so it shows the address in effect, not the one typed. */}
      <ProfileForm key={pendingNotice ?? profile.emailAddress} profile={profile} result={actionData?.intent === "profile" && "result" in actionData ? actionData.result : undefined} />
      <ChangePasswordForm result={actionData?.intent === "password" ? actionData.result : undefined} />
      <SubscriberLinks />
    </div>
  );
}

type Result = Parameters<typeof useSpecForm>[2];
type ProfileValues = Record<Exclude<keyof typeof profileSchema.shape, "currentPassword">, string>;

/**
 * The profile form: on the account page (a <Form>, under its own heading), or as the sign-in
 * modal's profile settings screen when given the modal's fetcher (the modal's title is the heading).
 */
export function ProfileForm({ profile, result, fetcher }: { profile: ProfileValues; result: Result; fetcher?: FormFetcher }) {
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
