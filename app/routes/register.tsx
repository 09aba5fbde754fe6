import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "../lib/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { register } from "../../server/accounts/registration";
import { carryOverReads } from "../../server/paywall/meter";
import { RegistrationForm } from "../components/account/RegistrationForm";
import * as prose from "../components/prose.css";
import { CAPTCHA_REQUIRED, tooManyAttempts, USERNAME_UNAVAILABLE } from "../lib/account-messages";
import { checkCaptcha, rateLimit } from "../lib/auth.server";
import { db } from "../lib/db.server";
import { readForm } from "../lib/form-guard.server";
import { registrationSchema } from "../lib/forms/account";
import { rejectForm } from "../lib/forms/reply.server";
import { formPageMeta } from "../lib/form-meta";
import { isDomesticVisitor } from "../lib/geo.server";
import { safeRedirectPath, withQueryValue } from "../lib/redirects";
import { currentUser, startSession } from "../lib/session.server";
import { knownVisitorId } from "../lib/visitor.server";
import { GENERIC_ERROR } from "../lib/site";
import { sentByFetcher } from "../lib/via-fetcher";

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
  if (sentByFetcher(form)) return data({ registered: true as const }, { headers });
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
      <p>
        Registration is free. Already have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}>Sign in</Link>.
      </p>
      <RegistrationForm
        redirectTo={redirectTo}
        domestic={domestic}
        result={actionData && "result" in actionData ? actionData.result : undefined}
      />
    </div>
  );
}
