import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SignInForm } from "~/app/components/account/SignInForm";
import * as css from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { formErrors, signInFlow } from "~/app/lib/accounts/flows.server";
import { PASSWORD_CHANGED } from "~/app/lib/accounts/messages";
import { readForm } from "~/app/lib/forms/guard.server";
import { signInSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { returnPath, safeRedirectPath } from "~/app/lib/http/redirects";
import { requestContext } from "~/app/lib/context/request-context.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnTo = returnPath(url.searchParams.get("redirectTo"));
  if (await requestContext({ request, context }).user()) throw redirect(returnTo);
  return { returnTo, reset: url.searchParams.get("reset") === "success" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: signInSchema });
  if (submission.status !== "success") return rejectForm(submission);

  // The sign-in flow (rate limit, captcha, lockout, the spec's messages) is POST /authenticate's too.
  const outcome = await signInFlow(request, context, submission.value);
  if (outcome.ok) {
    return redirect(safeRedirectPath(form.get("redirectTo")), { status: 303, headers: { "Set-Cookie": outcome.setCookie } });
  }
  const { problem } = outcome;
  return rejectForm(submission, formErrors(problem), problem.status, problem.code === "invalid_credentials" ? { credentials: true } : {});
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Sign in to your account",
    description: "Sign in to Meridian Review to save articles, follow topics and manage your subscription.",
    path: "/sign-in",
    nofollow: true,
  });

export default function SignIn() {
  const { returnTo, reset } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>Sign in to your account</h1>
      {reset ? (
        <p className={css.success} role="status">
          {PASSWORD_CHANGED} Sign in with your new password.
        </p>
      ) : null}
      <SignInForm redirectTo={returnTo} result={actionData?.result} credentials={Boolean(actionData && "credentials" in actionData)} />
    </div>
  );
}
