import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SignInForm } from "../components/account/SignInForm";
import * as css from "../components/forms/forms.css";
import * as prose from "../components/prose.css";
import {
  accountBlocked,
  CAPTCHA_REQUIRED,
  INVALID_CREDENTIALS,
  PASSWORD_CHANGED,
  RESTRICTED_USER,
  tooManyAttempts,
  triesLeft,
} from "../lib/account-messages";
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
