import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { User } from "~/server/accounts/users";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { Checkbox, Honeypot, PasswordField, TextField } from "~/app/components/forms/fields";
import * as css from "~/app/components/forms/forms.css";
import { useSpecForm, type SchemaLoader } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { formErrors } from "~/app/lib/accounts/flows.server";
import { OPT_IN_OTHER } from "~/app/lib/accounts/messages";
import { readForm } from "~/app/lib/forms/guard.server";
import { linkPrintSubscriptionSchema, subscriberRegistrationSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { PASSWORD_RULE } from "~/app/lib/forms/messages";
import { linkSubscriptionFlow, registerSubscriberFlow } from "~/app/lib/subscriptions/print-subscriber.server";
import { requestContext } from "~/app/lib/context/request-context.server";

const loadLinkPrintSubscriptionSchema: SchemaLoader<typeof linkPrintSubscriptionSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.linkPrintSubscriptionSchema);
const loadSubscriberRegistrationSchema: SchemaLoader<typeof subscriberRegistrationSchema> = () =>
  import("~/app/lib/accounts/account-forms").then((forms) => forms.subscriberRegistrationSchema);

/** Made up, and no subscriber's: a real number here would be someone's account. */
const ACCOUNT_NUMBER_HINT = "For example MR12345678.";

const verifyNotice = (email: string) =>
  `Before we connect a subscription we need to know that ${email} is yours. We have sent a link to it: follow the link, then enter your account number here again.`;

/** The address arrives base64-encoded (spec); anything that does not decode to text is ignored. */
function decodeAddress(value: string | null): string {
  if (!value || value.length > 400) return "";
  const decoded = Buffer.from(value, "base64").toString("utf8");
  return /^[^\s@]+@[^\s@]+$/.test(decoded) ? decoded : "";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await requestContext({ request, context }).user();
  const subscriber = await requestContext({ request, context }).subscriber();
  return {
    emailAddress: decodeAddress(url.searchParams.get("emailAddress")),
    signedInAs: user?.email ?? null,
    linkedTier: url.searchParams.get("linked") === "1" && subscriber ? subscriber.tier.name : null,
    verificationSent: Boolean(user) && url.searchParams.get("verify") === "sent",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requestContext({ request, context }).user();
  if (user) return linkToAccount(request, context, form, user);
  const submission = parseWithZod(form, { schema: subscriberRegistrationSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const outcome = await registerSubscriberFlow(request, context, submission.value);
  if (!outcome.ok) return rejectForm(submission, formErrors(outcome.problem), outcome.problem.status);
  return redirect("/?registration=success", { status: 303, headers: { "Set-Cookie": outcome.setCookie } });
}

/** A signed-in reader connects a print subscription recorded under their own address. */
async function linkToAccount(request: Request, context: AppLoadContext, form: FormData, user: User) {
  const submission = parseWithZod(form, { schema: linkPrintSubscriptionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const linked = await linkSubscriptionFlow(request, context, user, submission.value.accountNumber);
  if (!linked.ok) return rejectForm(submission, formErrors(linked.problem), linked.problem.status);
  return redirect(linked.outcome === "linked" ? "/subscriber-registration?linked=1" : "/subscriber-registration?verify=sent", 303);
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
  const { form, fields, summary, submitDisabled } = useSpecForm("link-print-subscription", loadLinkPrintSubscriptionSchema, result);
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
        <TextField meta={fields.accountNumber} label="Subscriber account number" hint={ACCOUNT_NUMBER_HINT} />
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
  const { form, fields, summary, submitDisabled } = useSpecForm("subscriber-registration", loadSubscriberRegistrationSchema, result, {
    emailAddress,
  });
  return (
    <div className={prose.narrow}>
      <h1>Activate your subscriber account</h1>
      <p>
        Connect your print subscription to a web account: enter the email address it is recorded under and the account number printed on
        your mailing label or invoice, then choose a password.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={css.form}>
        <Honeypot />
        <LookupError message={form.errors?.[0]} id={form.errorId} />
        <TextField meta={fields.emailAddress} label="Email address" type="email" autoComplete="email" />
        <TextField meta={fields.accountNumber} label="Subscriber account number" hint={ACCOUNT_NUMBER_HINT} />
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
