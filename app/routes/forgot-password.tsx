import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ForgotPasswordForm } from "~/app/components/account/ForgotPasswordForm";
import * as css from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { forgotPasswordFlow, formErrors } from "~/app/lib/accounts/flows.server";
import { RESET_SENT } from "~/app/lib/accounts/messages";
import { readForm } from "~/app/lib/forms/guard.server";
import { forgotPasswordSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";

export function loader({ request }: LoaderFunctionArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return rejectForm(submission);

  // The flow (rate limit, captcha, the mail) is the service API's forgot-password too.
  const problem = await forgotPasswordFlow(request, context, submission.value);
  if (problem) return rejectForm(submission, formErrors(problem), problem.status);
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
