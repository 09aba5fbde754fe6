import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { PasswordField } from "~/app/components/forms/fields";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { formErrors } from "~/app/lib/accounts/flows.server";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";
import { accountBlocker, deleteOwnAccount, type Blocker } from "~/app/lib/privacy/account.server";
import { deleteAccountSchema } from "~/app/lib/privacy/forms";
import { DELETE_MY_ACCOUNT, DOWNLOAD_MY_DATA } from "~/app/lib/privacy/messages";

const loadSchema: SchemaLoader<typeof deleteAccountSchema> = () => import("~/app/lib/privacy/forms").then((m) => m.deleteAccountSchema);

/** "Delete my account" (ADR 089): what goes and what stays, and the password asked again; or what must be settled first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  return { blocker: await accountBlocker(user) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requireUser({ request, context });
  const submission = parseWithZod(form, { schema: deleteAccountSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, { blocker: null as Blocker | null });
  const outcome = await deleteOwnAccount(request, context, user, submission.value.currentPassword);
  if (!outcome.ok) return rejectForm(submission, formErrors(outcome.problem), outcome.problem.status, { blocker: outcome.blocker ?? null });
  return redirect("/account-deleted", { status: 303, headers: { "Set-Cookie": outcome.setCookie } });
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: DELETE_MY_ACCOUNT,
    description: "Delete your Meridian Review account and the personal data we hold about you.",
    path: "/my-account/delete",
  });

function Settle({ blocker }: { blocker: Blocker }) {
  return (
    <p className={prose.notice}>
      {blocker.message}
      {blocker.link ? (
        <>
          {" "}
          <Link to={blocker.link.to}>{blocker.link.text}</Link>
        </>
      ) : null}
    </p>
  );
}

export default function DeleteAccount() {
  const { blocker } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("delete-account", loadSchema, actionData?.result);
  const standing = actionData?.blocker ?? blocker;
  return (
    <div className={prose.narrow}>
      <h1>{DELETE_MY_ACCOUNT}</h1>
      <p>
        Deleting your account erases, at once and for good, your profile and everything that goes with it: your follows and newsletter
        sign-ups, My Library, your notes, your reading, viewing and sharing history, your gift links, the free articles counted this month
        and the record of the mail we sent you. You are signed out everywhere, and you can register again with the same e-mail address
        later.
      </p>
      <p>
        <strong>What we keep:</strong> the law requires us to keep the records of what you bought. Your orders and subscription invoices
        stay in our books, made out to your name and address, but no longer tied to any account, and we will not e-mail you about them
        again; an order you have paid for that has not shipped is still sent. A subscription you have cancelled that still runs ends now,
        without a refund for the time left.
      </p>
      <p>
        Before you go, you may want to keep a copy of your data: <Link to="/my-account/data">{DOWNLOAD_MY_DATA}</Link>.
      </p>
      {standing ? (
        <Settle blocker={standing} />
      ) : (
        <>
          <ErrorSummary items={summary} />
          <Form method="post" action="/my-account/delete" {...getFormProps(form)} noValidate className={forms.form}>
            <PasswordField
              meta={fields.currentPassword}
              label="Your password"
              hint="To be sure it is you, enter the password you sign in with."
              autoComplete="current-password"
            />
            <div className={forms.actions}>
              <button type="submit" className={primaryButton} disabled={submitDisabled}>
                {DELETE_MY_ACCOUNT}
              </button>
              <Link to="/my-account">Keep my account</Link>
            </div>
          </Form>
        </>
      )}
    </div>
  );
}
