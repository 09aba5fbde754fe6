import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { pendingEmailFor } from "~/server/accounts/email-change";
import { EMAIL_LINK_HOURS } from "~/shared/email-change";
import type { User } from "~/server/accounts/users";
import { ProfileForm } from "~/app/components/account/ProfileForm";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { HelpBox } from "~/app/components/HelpBox";
import { PasswordField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { changePasswordFlow, formErrors, saveProfileFlow } from "~/app/lib/accounts/flows.server";
import { PASSWORD_CHANGED } from "~/app/lib/accounts/messages";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { changePasswordSchema, profileSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { useRootData } from "~/app/lib/http/root-data";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { requireUser } from "~/app/lib/context/request-context.server";
import { DELETE_MY_ACCOUNT, DOWNLOAD_MY_DATA } from "~/app/lib/privacy/messages";

const loadChangePasswordSchema: SchemaLoader<typeof changePasswordSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.changePasswordSchema);

const PROFILE_SAVED = "Your profile has been saved.";

const pendingNotice = (email: string) =>
  `We have sent a link to ${email}. Your email address changes when you follow it (within ${EMAIL_LINK_HOURS} hours); until then, keep signing in with your current address.`;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
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
  const user = await requireUser({ request, context });
  const form = await readForm(request);
  return form.get("intent") === "password"
    ? changePasswordAction(request, context, form, user)
    : saveProfileAction(request, context, form, user);
}

// Both forms' flows (rate limits, the current-password lockout, the mails) are the service API's
// POST /service/user/password and POST /service/user/profile too.

async function changePasswordAction(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const intent = { intent: "password" as const };
  const submission = parseWithZod(form, { schema: changePasswordSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, intent);
  const problem = await changePasswordFlow(request, context, user, submission.value);
  if (problem) return rejectForm(submission, formErrors(problem), problem.status, intent);
  return redirect("/my-account?updated=password", 303);
}

async function saveProfileAction(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const intent = { intent: "profile" as const };
  const submission = parseWithZod(form, { schema: profileSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, intent);
  const saved = await saveProfileFlow(request, context, user, submission.value);
  if (!saved.ok) return rejectForm(submission, formErrors(saved.problem), saved.problem.status, intent);
  // From the sign-in modal: it closes itself.
  if (sentByFetcher(form)) return { intent: "profile" as const, saved: true as const };
  return redirect(`/my-account?updated=${saved.changesEmail ? "email-sent" : "profile"}`, 303);
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
      <HelpBox id="firmographics" headline="Tell us about your work">
        Add your industry, job title and company size below and we will recommend articles that fit. Every question is optional.
      </HelpBox>
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
      <AccountLinks />
      <PrivacyLinks />
    </div>
  );
}

type Result = Parameters<typeof useSpecForm>[2];

export function ChangePasswordForm({ result }: { result: Result }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("change-password", loadChangePasswordSchema, result);
  return (
    <section aria-labelledby="password-heading" className={prose.section}>
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

/** The reader's own privacy rights (ADR 089): their data, and deleting the account, each on a page of its own. */
function PrivacyLinks() {
  return (
    <section aria-labelledby="privacy-heading" className={prose.section}>
      <h2 id="privacy-heading">Your data and your account</h2>
      <p>
        See everything we hold about you, or take it with you as a file; or delete your account and what we hold about you. Our{" "}
        <Link to="/privacy-policy">privacy policy</Link> says what we record and why.
      </p>
      <ul>
        <li>
          <Link to="/my-account/data">{DOWNLOAD_MY_DATA}</Link>
        </li>
        <li>
          <Link to="/my-account/delete">{DELETE_MY_ACCOUNT}</Link>
        </li>
      </ul>
    </section>
  );
}

/** The billing page for every reader; a subscriber's gift links and notes, each on a page of its own. */
function AccountLinks() {
  const subscriber = useRootData()?.subscriber;
  return (
    <section aria-labelledby="subscriber-heading" className={prose.section}>
      <h2 id="subscriber-heading">{subscriber ? "Subscription, gifts and notes" : "Subscription"}</h2>
      <ul>
        <li>
          <Link to="/my-account/billing">Subscription and billing</Link>
        </li>
        {subscriber ? (
          <>
            <li>
              <Link to="/my-account/gifts">Your gift links</Link>
            </li>
            <li>
              <Link to="/my-account/notes">Your notes</Link>
            </li>
          </>
        ) : null}
      </ul>
    </section>
  );
}
