import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { linkPrintSubscription, registerPrintSubscriber } from "../../server/accounts/print-subscribers";
import { requestAddressVerification } from "../../server/accounts/email-change";
import type { User } from "../../server/accounts/users";
import { subscriberStatus } from "../../server/subscriptions/entitlements";
import { primaryButton } from "../components/controls.css";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { Checkbox, Honeypot, PasswordField, TextField } from "../components/forms/fields";
import * as css from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import * as prose from "../components/prose.css";
import { OPT_IN_OTHER, tooManyAttempts, USERNAME_UNAVAILABLE } from "../lib/account-messages";
import { sendEmailConfirmation } from "../lib/account-mail.server";
import { rateLimit } from "../lib/auth.server";
import { db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { linkPrintSubscriptionSchema, subscriberRegistrationSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { PASSWORD_RULE } from "../lib/forms/validation";
import { currentUser, startSession } from "../lib/session.server";
import { GENERIC_ERROR } from "../lib/site";

const NO_ACTIVE_SUBSCRIPTION = "No Active Subscriptions Found";
const verifyNotice = (email: string) =>
  `Before we connect a subscription we need to know that ${email} is yours. We have sent a link to it: follow the link, then enter your account number here again.`;

/** The address arrives base64-encoded (spec); anything that does not decode to text is ignored. */
function decodeAddress(value: string | null): string {
  if (!value || value.length > 400) return "";
  const decoded = Buffer.from(value, "base64").toString("utf8");
  return /^[^\s@]+@[^\s@]+$/.test(decoded) ? decoded : "";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await currentUser(request);
  const subscriber = user ? await subscriberStatus(await db(), user.id) : null;
  return {
    emailAddress: decodeAddress(url.searchParams.get("emailAddress")),
    signedInAs: user?.email ?? null,
    linkedTier: url.searchParams.get("linked") === "1" && subscriber ? subscriber.tier.name : null,
    verificationSent: Boolean(user) && url.searchParams.get("verify") === "sent",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await currentUser(request);
  if (user) return linkToAccount(request, context, form, user);
  const submission = parseWithZod(form, { schema: subscriberRegistrationSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const limited = await rateLimit(request, context, "register", input.emailAddress);
  if (!limited.allowed) return rejectForm(submission, { formErrors: [tooManyAttempts(limited.retryAfterSeconds)] }, 429);
  const outcome = await registerPrintSubscriber(await db(), {
    email: input.emailAddress,
    accountNumber: input.accountNumber,
    password: input.password,
    optIn: input.optIn === "on",
  });
  if (!outcome.ok) {
    return outcome.reason === "taken"
      ? rejectForm(submission, { fieldErrors: { emailAddress: [USERNAME_UNAVAILABLE] } }, 409)
      : rejectForm(submission, { formErrors: [NO_ACTIVE_SUBSCRIPTION] }, 404);
  }
  return redirect("/?registration=success", { status: 303, headers: { "Set-Cookie": await startSession(request, outcome.user.id) } });
}

/** A signed-in reader connects a print subscription recorded under their own address. */
async function linkToAccount(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const submission = parseWithZod(form, { schema: linkPrintSubscriptionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const limited = await rateLimit(request, context, "register", user.email);
  if (!limited.allowed) return rejectForm(submission, { formErrors: [tooManyAttempts(limited.retryAfterSeconds)] }, 429);
  const outcome = await linkPrintSubscription(await db(), user, submission.value.accountNumber);
  if (outcome === "no-active-subscription") return rejectForm(submission, { formErrors: [NO_ACTIVE_SUBSCRIPTION] }, 404);
  if (outcome === "unverified") {
    // The address was only ever typed: prove it is the reader's before the subscription moves.
    const token = await requestAddressVerification(await db(), user);
    if (!(await sendEmailConfirmation(user, user.email, token, "verify")))
      return rejectForm(submission, { formErrors: [GENERIC_ERROR] }, 503);
    return redirect("/subscriber-registration?verify=sent", 303);
  }
  return redirect("/subscriber-registration?linked=1", 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Activate your subscriber account",
    description: "Print subscribers: connect your subscription to a web account.",
    path: "/subscriber-registration",
  });

export default function SubscriberRegistration() {
  const { emailAddress, signedInAs, linkedTier, verificationSent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (linkedTier) {
    return (
      <div className={prose.narrow}>
        <h1>Your print subscription is connected</h1>
        <p className={css.success} role="status">
          You now have {linkedTier} access on the web. <Link to="/">Start reading</Link>.
        </p>
      </div>
    );
  }
  if (signedInAs && verificationSent) {
    return (
      <div className={prose.narrow}>
        <h1>Confirm your email address</h1>
        <p className={css.success} role="status">
          {verifyNotice(signedInAs)}
        </p>
      </div>
    );
  }
  if (signedInAs) return <LinkPrintSubscription email={signedInAs} result={actionData?.result} />;
  return <CreateSubscriberAccount emailAddress={emailAddress} result={actionData?.result} />;
}

/** The subscription lookup's answer ("No Active Subscriptions Found", or a rate limit). */
function LookupError({ message, id }: { message: string | undefined; id: string }) {
  if (!message) return null;
  return (
    <p className={css.formMessage} id={id}>
      {message}. Check the account number, or <Link to="/subscriber-help#contact-customer-service">contact customer service</Link>.
    </p>
  );
}

function LinkPrintSubscription({ email, result }: { email: string; result: Parameters<typeof useSpecForm>[2] }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("link-print-subscription", linkPrintSubscriptionSchema, result);
  return (
    <div className={prose.narrow}>
      <h1>Connect your print subscription</h1>
      <p>
        Enter the account number printed on your mailing label or invoice. The subscription must be recorded under {email}, the address you
        are signed in with.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
        <Honeypot />
        <LookupError message={form.errors?.[0]} id={form.errorId} />
        <TextField meta={fields.accountNumber} label="Subscriber account number" hint="For example MR10045521." />
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Connect Subscription
          </button>
        </div>
      </Form>
    </div>
  );
}

function CreateSubscriberAccount({ emailAddress, result }: { emailAddress: string; result: Parameters<typeof useSpecForm>[2] }) {
  const { form, fields, summary, submitDisabled } = useSpecForm("subscriber-registration", subscriberRegistrationSchema, result, {
    emailAddress,
  });
  return (
    <div className={prose.narrow}>
      <h1>Activate your subscriber account</h1>
      <p>
        This email address belongs to a print subscription. Enter the account number printed on your mailing label or invoice to connect it
        to a web account, and choose a password.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
        <Honeypot />
        <LookupError message={form.errors?.[0]} id={form.errorId} />
        <TextField meta={fields.emailAddress} label="Email address" type="email" autoComplete="email" />
        <TextField meta={fields.accountNumber} label="Subscriber account number" hint="For example MR10045521." />
        <PasswordField meta={fields.password} label="Password" autoComplete="new-password" hint={PASSWORD_RULE} />
        <Checkbox meta={fields.optIn} defaultChecked={false}>
          {OPT_IN_OTHER}
        </Checkbox>
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Activate Account
          </button>
        </div>
      </Form>
    </div>
  );
}
