import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { register } from "../../server/accounts/registration";
import { carryOverReads } from "../../server/paywall/meter";
import { primaryButton } from "../components/controls.css";
import { CaptchaToken } from "../components/forms/CaptchaToken";
import { ErrorSummary } from "../components/forms/ErrorSummary";
import { fromModal, useFormHost, type FormFetcher } from "../components/forms/form-host";
import { Checkbox, Honeypot, PasswordField, TextField } from "../components/forms/fields";
import * as css from "../components/forms/forms.css";
import { useSpecForm } from "../components/forms/useSpecForm";
import * as prose from "../components/prose.css";
import { CAPTCHA_REQUIRED, OPT_IN_DOMESTIC, OPT_IN_OTHER, tooManyAttempts, USERNAME_UNAVAILABLE } from "../lib/account-messages";
import { checkCaptcha, rateLimit } from "../lib/auth.server";
import { config, db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { registrationSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { isDomesticVisitor } from "../lib/geo.server";
import { safeRedirectPath, withQueryValue } from "../lib/redirects";
import { currentUser, startSession } from "../lib/session.server";
import { knownVisitorId } from "../lib/visitor.server";
import { GENERIC_ERROR } from "../lib/site";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (await currentUser(request)) throw redirect(redirectTo);
  return { redirectTo, domestic: await isDomesticVisitor(request, context) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: registrationSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;

  const limited = await rateLimit(request, context, "register", input.emailAddress);
  if (!limited.allowed) return rejectForm(submission, { formErrors: [tooManyAttempts(limited.retryAfterSeconds)] }, 429);
  const human = await checkCaptcha(request, context, input.reCaptchaToken, "register");
  if (!human.ok) return rejectForm(submission, { formErrors: [human.reason === "missing" ? CAPTCHA_REQUIRED : GENERIC_ERROR] }, 400);

  const outcome = await register(await db(), {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.emailAddress,
    password: input.password,
    optIn: input.optIn === "on",
  });
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "taken":
        return rejectForm(submission, { fieldErrors: { emailAddress: [USERNAME_UNAVAILABLE] } }, 409);
      case "restricted":
        return redirect("/restricted-user", 303);
      case "print-subscriber": {
        const encoded = Buffer.from(input.emailAddress.toLowerCase()).toString("base64");
        return redirect(`/subscriber-registration?emailAddress=${encodeURIComponent(encoded)}`, 303);
      }
    }
  }
  // What the guest read this month stays counted on their new account.
  const visitor = await knownVisitorId(request);
  if (visitor) await carryOverReads(await db(), visitor, outcome.user.id);
  const headers = { "Set-Cookie": await startSession(request, outcome.user.id) };
  // From the sign-in modal: stay on the page (the modal moves on to profile settings).
  if (fromModal(form)) return data({ registered: true as const }, { headers });
  const back = withQueryValue(safeRedirectPath(form.get("redirectTo")), "registration", "success");
  return redirect(back, { status: 303, headers });
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Create an account",
    description: "Register for free to read more articles, save them to your library and follow the topics you care about.",
    path: "/register",
  });

export default function Register() {
  const { redirectTo, domestic } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>Create an account</h1>
      <p>Registration is free. Already have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}>Sign in</Link>.</p>
      <RegistrationForm redirectTo={redirectTo} domestic={domestic} result={actionData && "result" in actionData ? actionData.result : undefined} />
    </div>
  );
}

/** The registration form: on its page (a <Form>), or in the sign-in modal when given the modal's fetcher. */
export function RegistrationForm({
  redirectTo,
  domestic,
  result,
  fetcher,
  defaultEmail,
}: {
  redirectTo: string;
  domestic: boolean;
  result: Parameters<typeof useSpecForm>[2];
  fetcher?: FormFetcher;
  /** Prefills the e-mail address (e.g. a guest's order e-mail). */
  defaultEmail?: string;
}) {
  const { form, fields, summary, submitDisabled } = useSpecForm("register", registrationSchema, result, defaultEmail ? { emailAddress: defaultEmail } : undefined);
  const { FormElement, pending, viaField } = useFormHost(fetcher, "/register");
  return (
    <>
      <ErrorSummary items={summary} />
      <FormElement method="post" action={`/register?redirectTo=${encodeURIComponent(redirectTo)}`} {...getFormProps(form)} noValidate className={css.form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {viaField}
        <Honeypot />
        <CaptchaToken action="register" />
        {form.errors?.[0] ? (
          <p className={css.formMessage} id={form.errorId}>
            {form.errors[0]}
          </p>
        ) : null}
        <TextField meta={fields.firstName} label="First name" autoComplete="given-name" />
        <TextField meta={fields.lastName} label="Last name" autoComplete="family-name" />
        <TextField meta={fields.emailAddress} label="Email address" type="email" autoComplete="email" />
        <PasswordField
          meta={fields.password}
          label="Password"
          autoComplete="new-password"
          hint="Use at least 10 characters (8 at the very least), with a number, an upper and a lower case letter, and one of @ ! # $ % ^ & + =. No spaces."
        />
        <Checkbox meta={fields.optIn} defaultChecked={domestic}>
          {domestic ? OPT_IN_DOMESTIC : OPT_IN_OTHER}
        </Checkbox>
        <p className={css.hint}>
          By creating an account you accept our <Link to="/privacy-policy">privacy policy</Link>.
        </p>
        <div className={css.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled || pending}>
            Create Account
          </button>
        </div>
      </FormElement>
    </>
  );
}
