import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requestPasswordReset, RESET_LINK_MINUTES } from "../../server/accounts/password-reset";
import { mailer } from "../../server/adapters/mail";
import { ForgotPasswordForm } from "../components/account/ForgotPasswordForm";
import * as css from "../components/forms/forms.css";
import * as prose from "../components/prose.css";
import { CAPTCHA_REQUIRED, RESET_LOCKED, RESET_SENT, RESTRICTED_USER, tooManyAttempts } from "../lib/account-messages";
import { checkCaptcha, rateLimit } from "../lib/auth.server";
import { config, db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { forgotPasswordSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { GENERIC_ERROR, SITE_NAME } from "../lib/site";
import { sentByFetcher } from "../lib/via-fetcher";
import { log } from "../../server/log";

export function loader({ request }: LoaderFunctionArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { emailAddress, reCaptchaToken } = submission.value;

  const limited = await rateLimit(request, context, "forgot-password", emailAddress);
  if (!limited.allowed) return rejectForm(submission, { formErrors: [tooManyAttempts(limited.retryAfterSeconds)] }, 429);
  const human = await checkCaptcha(request, context, reCaptchaToken, "forgot-password");
  if (!human.ok) return rejectForm(submission, { formErrors: [human.reason === "missing" ? CAPTCHA_REQUIRED : GENERIC_ERROR] }, 400);

  const outcome = await requestPasswordReset(await db(), emailAddress);
  if (outcome.outcome === "hard-locked") return rejectForm(submission, { formErrors: [RESET_LOCKED] }, 423);
  if (outcome.outcome === "restricted") return rejectForm(submission, { formErrors: [RESTRICTED_USER] }, 403);
  if (outcome.outcome === "sent") {
    const link = `${config().siteUrl}/reset-password?token=${encodeURIComponent(outcome.token)}`;
    // Not awaited: an address with an account must not answer slower than one without.
    mailer()
      .send({
        to: outcome.user.email,
        subject: `Reset your ${SITE_NAME} password`,
        text: [
          `Hello ${outcome.user.firstName},`,
          "",
          `Someone (we hope you) asked to reset the password of your ${SITE_NAME} account. Open this link to choose a new one:`,
          "",
          link,
          "",
          `The link works once and expires in ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this message: your password stays as it is.`,
        ].join("\n"),
      })
      .catch((error: unknown) => log.error("password reset mail failed", { error }));
  }
  // From the sign-in modal: the modal shows the message itself.
  if (sentByFetcher(form)) return { sent: true as const };
  return redirect("/forgot-password?sent=1", 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Reset your password",
    description: "Forgot your password? Ask for a link to choose a new one.",
    path: "/forgot-password",
  });

export default function ForgotPassword() {
  const { sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>Reset your password</h1>
      {sent ? (
        <>
          <p className={css.success} role="status">
            {RESET_SENT}
          </p>
          <p>
            <Link to="/sign-in">Back to sign in</Link>
          </p>
        </>
      ) : (
        <ForgotPasswordForm result={actionData && "result" in actionData ? actionData.result : undefined} />
      )}
    </div>
  );
}
