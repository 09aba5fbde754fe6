import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { userForResetToken } from "~/server/accounts/password-reset";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { PasswordField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { PASSWORD_RULE } from "~/app/lib/forms/messages";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { resetPasswordSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { formErrors, resetPasswordFlow } from "~/app/lib/accounts/flows.server";
import { LINK_DEAD } from "~/app/lib/accounts/messages";

const loadResetPasswordSchema: SchemaLoader<typeof resetPasswordSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.resetPasswordSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token.length > 0 && token.length < 200 && Boolean(await userForResetToken(await db(), token));
  return { token: valid ? token : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: resetPasswordSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const outcome = await resetPasswordFlow(request, context, { token: submission.value.token, password: submission.value.newPassword });
  if (!outcome.ok) return rejectForm(submission, formErrors(outcome.problem), outcome.problem.status);
  // Every session of the account has ended, this browser's included: sign in afresh.
  return redirect("/sign-in?reset=success", { status: 303, headers: { "Set-Cookie": outcome.setCookie } });
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, { title: "Choose a new password", description: "Choose a new password for your account.", path: "/reset-password" });

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("reset-password", loadResetPasswordSchema, actionData?.result);
  return (
    <div className={prose.narrow}>
      <h1>Choose a new password</h1>
      {token ? (
        <>
          <ErrorSummary items={summary} />
          <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
            <input type="hidden" name="token" value={token} />
            {form.errors?.[0] ? (
              <p className={css.formMessage} id={form.errorId}>
                {form.errors[0]} <Link to="/forgot-password">Ask for a new link</Link>.
              </p>
            ) : null}
            <PasswordField meta={fields.newPassword} label="New password" autoComplete="new-password" hint={PASSWORD_RULE} />
            <PasswordField meta={fields.confirmPassword} label="Confirm new password" autoComplete="new-password" />
            <div className={css.actions}>
              <button type="submit" className={primaryButton} disabled={submitDisabled}>
                Save Password
              </button>
            </div>
          </Form>
        </>
      ) : (
        <p>
          {LINK_DEAD} <Link to="/forgot-password">Ask for a new link</Link>.
        </p>
      )}
    </div>
  );
}
