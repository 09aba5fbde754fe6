import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { confirmEmailChange, pendingChangeForToken, type AddressRefusal } from "~/server/accounts/email-change";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { ADDRESS_BLOCKED, USERNAME_UNAVAILABLE } from "~/app/lib/accounts/messages";
import { sendEmailChangedNotice } from "~/app/lib/accounts/mail.server";
import { db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { confirmEmailSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";

const loadConfirmEmailSchema: SchemaLoader<typeof confirmEmailSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.confirmEmailSchema);

// A mailed link opens this page, which asks for one click: a mail scanner that fetches the link
// changes nothing, only the button's POST does.

const LINK_DEAD = "This confirmation link has expired or has already been used.";
const DONE: Record<"changed" | "verified", string> = {
  changed: "Your email address has been changed. Sign in with the new address from now on.",
  verified: "Thank you: your email address is confirmed.",
};
const REFUSED: Record<AddressRefusal, string> = {
  taken: USERNAME_UNAVAILABLE,
  "print-subscriber": USERNAME_UNAVAILABLE,
  restricted: ADDRESS_BLOCKED,
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const done = url.searchParams.get("done");
  if (done === "changed" || done === "verified") return { done: DONE[done], token: null, newEmail: null };
  const token = url.searchParams.get("token") ?? "";
  const pending = token.length > 0 && token.length < 200 ? await pendingChangeForToken(await db(), token) : undefined;
  return { done: null, token: pending ? token : null, newEmail: pending?.newEmail ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: confirmEmailSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const outcome = await confirmEmailChange(await db(), submission.value.token);
  switch (outcome.outcome) {
    case "dead":
      return rejectForm(submission, { formErrors: [LINK_DEAD] }, 410);
    case "refused":
      return rejectForm(submission, { formErrors: [REFUSED[outcome.reason]] }, 409);
    case "changed":
      await sendEmailChangedNotice(outcome.user, outcome.previousEmail);
      return redirect("/confirm-email?done=changed", 303);
    case "verified":
      return redirect("/confirm-email?done=verified", 303);
  }
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Confirm your email address",
    description: "Confirm the email address of your account.",
    path: "/confirm-email",
  });

export default function ConfirmEmail() {
  const { done, token, newEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form } = useSpecForm("confirm-email", loadConfirmEmailSchema, actionData?.result);
  const problem = form.errors?.[0];
  return (
    <div className={prose.narrow}>
      <h1>Confirm your email address</h1>
      {done ? (
        <p className={css.success} role="status">
          {done} <Link to="/my-account">Go to your account</Link>.
        </p>
      ) : problem ? (
        <p className={css.formMessage} id={form.errorId} role="alert">
          {problem} <Link to="/my-account">Go to your account</Link>.
        </p>
      ) : token ? (
        <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
          <input type="hidden" name="token" value={token} />
          <p>
            Confirm that <strong>{newEmail}</strong> is the email address of your account.
          </p>
          <div className={css.actions}>
            <button type="submit" className={primaryButton}>
              Confirm Email Address
            </button>
          </div>
        </Form>
      ) : (
        <p>
          {LINK_DEAD} <Link to="/my-account">Go to your account</Link>.
        </p>
      )}
    </div>
  );
}
