import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { changePassword, checkCurrentPassword, type CurrentPasswordCheck } from "../../server/accounts/change-password";
import { pendingEmailFor, requestEmailChange, type AddressRefusal } from "../../server/accounts/email-change";
import { EMAIL_LINK_HOURS } from "../../shared/email-change";
import { normalizeEmail, updateProfile, type User } from "../../server/accounts/users";
import { ProfileForm } from "../components/account/ProfileForm";
import { primaryButton } from "../components/controls.css";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { HelpBox } from "../components/HelpBox";
import { PasswordField } from "../components/forms/fields";
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
import { changePasswordSchema, profileSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { requireUser, sessionToken } from "../lib/session.server";
import { GENERIC_ERROR } from "../lib/site";
import { useRootData } from "../lib/root-data";
import { sentByFetcher } from "../lib/via-fetcher";

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
  return form.get("intent") === "password"
    ? changePasswordAction(request, context, form, user)
    : saveProfileAction(request, context, form, user);
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
      await changePassword(
        await db(),
        user,
        { current: submission.value.currentPassword, next: submission.value.newPassword },
        token,
        lockoutRules(),
      ),
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
    if (!value.currentPassword)
      return rejectForm(submission, { fieldErrors: { currentPassword: [CURRENT_PASSWORD_REQUIRED] } }, 400, intent);
    const problem =
      (await rateLimitProblem(request, context, user)) ??
      checkProblem(await checkCurrentPassword(await db(), user, value.currentPassword, lockoutRules()));
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
  if (sentByFetcher(form)) return { intent: "profile" as const, saved: true as const };
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
      <ProfileForm
        key={pendingNotice ?? profile.emailAddress}
        profile={profile}
        result={actionData?.intent === "profile" && "result" in actionData ? actionData.result : undefined}
      />
      <ChangePasswordForm result={actionData?.intent === "password" ? actionData.result : undefined} />
      <SubscriberLinks />
    </div>
  );
}

type Result = Parameters<typeof useSpecForm>[2];

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
  if (!useRootData()?.subscriber) return null;
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
