import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { useFormHost, type FormFetcher } from "../components/forms/form-host";
import { Honeypot, PasswordField, TextField } from "../components/forms/fields";
import * as css from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import { CaptchaToken } from "../components/forms/CaptchaToken";
import { primaryButton } from "../components/controls.css";
import * as prose from "../components/prose.css";
import { accountBlocked, CAPTCHA_REQUIRED, INVALID_CREDENTIALS, PASSWORD_CHANGED, RESTRICTED_USER, SIGN_IN_PENDING, tooManyAttempts, triesLeft } from "../lib/account-messages";
import { authenticator, checkCaptcha, rateLimit } from "../lib/auth.server";
import { readForm } from "../lib/form-guard.server";
import { signInSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { safeRedirectPath } from "../lib/redirects";
import { currentUser, startSession } from "../lib/session.server";
import { GENERIC_ERROR } from "../lib/site";

/** Below this many tries left the message counts them (ADR 008). */
const COUNT_TRIES_FROM = 3;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (await currentUser(request)) throw redirect(redirectTo);
  return { redirectTo, reset: url.searchParams.get("reset") === "success" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  const submission = parseWithZod(form, { schema: signInSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { username, reCaptchaToken } = submission.value;

  const limited = await rateLimit(request, context, "sign-in", username);
  if (!limited.allowed) return rejectForm(submission, { formErrors: [tooManyAttempts(limited.retryAfterSeconds)] }, 429);
  const human = await checkCaptcha(request, context, reCaptchaToken, "sign-in");
  if (!human.ok) return rejectForm(submission, { formErrors: [human.reason === "missing" ? CAPTCHA_REQUIRED : GENERIC_ERROR] }, 400);

  const outcome = await authenticator.authenticate("password", request);
  if (outcome.ok) {
    return redirect(safeRedirectPath(form.get("redirectTo")), {
      status: 303,
      headers: { "Set-Cookie": await startSession(request, outcome.user.id) },
    });
  }
  switch (outcome.reason) {
    case "locked":
      return rejectForm(submission, { formErrors: [accountBlocked(outcome.lockoutSeconds)] }, 423);
    case "restricted":
      return rejectForm(submission, { formErrors: [RESTRICTED_USER] }, 403);
    case "invalid": {
      const message = outcome.triesLeft <= COUNT_TRIES_FROM ? triesLeft(outcome.triesLeft) : INVALID_CREDENTIALS;
      return rejectForm(submission, { formErrors: [message] }, 401, { credentials: true });
    }
  }
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Sign in to your account",
    description: "Sign in to Meridian Review to save articles, follow topics and manage your subscription.",
    path: "/sign-in",
  });

export default function SignIn() {
  const { redirectTo, reset } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>Sign in to your account</h1>
      {reset ? (
        <p className={css.success} role="status">
          {PASSWORD_CHANGED} Sign in with your new password.
        </p>
      ) : null}
      <SignInForm redirectTo={redirectTo} result={actionData?.result} credentials={Boolean(actionData && "credentials" in actionData)} />
    </div>
  );
}

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
  const { form, fields, summary, submitDisabled } = useSpecForm("sign-in", signInSchema, result);
  const { FormElement, pending, viaField } = useFormHost(fetcher, "/sign-in");
  const formError = form.errors?.[0];
  // Wrong email or password: focus goes to the password, to try again (the autofocus does this
  // on a page load without JS; with JS the form stays mounted, so each answer does it here).
  const passwordId = fields.password.id;
  useEffect(() => {
    if (credentials && result) document.getElementById(passwordId)?.focus();
  }, [credentials, result, passwordId]);
  return (
    <>
      <ErrorSummary items={summary} takeFocus={!credentials} />
      <FormElement method="post" action={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`} {...getFormProps(form)} noValidate className={css.form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {viaField}
        <Honeypot />
        <CaptchaToken action="sign_in" />
        {formError ? (
          <div className={css.formMessage} id={form.errorId}>
            <p>{formError}</p>
            {credentials ? (
              <p>
                <Link to="/forgot-password">Reset your password</Link> or <Link to={`/register?redirectTo=${encodeURIComponent(redirectTo)}`}>create an account</Link>.
              </p>
            ) : null}
          </div>
        ) : null}
        <TextField meta={fields.username} label="Email address" type="email" autoComplete="username" flagged={credentials} />
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
