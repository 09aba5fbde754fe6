import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { RegistrationForm } from "~/app/components/account/RegistrationForm";
import * as prose from "~/app/components/prose.css";
import { formErrors, registerFlow } from "~/app/lib/accounts/flows.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { modalRegistrationSchema, registrationSchema } from "~/app/lib/accounts/account-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { returnPath, safeRedirectPath, withQueryValue } from "~/app/lib/http/redirects";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { requestContext } from "~/app/lib/context/request-context.server";
import { wallTag } from "~/server/paywall/walls";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnTo = returnPath(url.searchParams.get("redirectTo"));
  if (await requestContext({ request, context }).user()) throw redirect(returnTo);
  // A form sent from the registration wall and refused comes back here: sent again, it still names the wall.
  return { returnTo, region: await visitorRegion(request, context), wallTag: wallTag(url.searchParams.get("wallTag")) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  // The modal posts here too, and checks the address in its own words.
  const submission = parseWithZod(form, { schema: sentByFetcher(form) ? modalRegistrationSchema : registrationSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;

  // The flow (rate limit, captcha, the account, the guest's reads, the session) is POST /api/user/register's too.
  // The registration wall's form names its A/B tag: the meter funnel counts the account (ADR 090).
  const outcome = await registerFlow(request, context, input, wallTag(form.get("wallTag")));
  if (!outcome.ok) {
    const { problem } = outcome;
    switch (problem.code) {
      case "user_restricted":
        return redirect("/restricted-user", 303);
      case "print_subscriber": {
        const encoded = Buffer.from(input.emailAddress.toLowerCase()).toString("base64");
        return redirect(`/subscriber-registration?emailAddress=${encodeURIComponent(encoded)}`, 303);
      }
      default:
        return rejectForm(submission, formErrors(problem), problem.status);
    }
  }
  const headers = { "Set-Cookie": outcome.setCookie };
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
    nofollow: true,
  });

export default function Register() {
  const { returnTo, region, wallTag: fromWall } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className={prose.narrow}>
      <h1>Create an account</h1>
      <p>
        Registration is free. Already have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(returnTo)}`}>Sign in</Link>.
      </p>
      <RegistrationForm
        redirectTo={returnTo}
        region={region}
        wallTag={fromWall}
        result={actionData && "result" in actionData ? actionData.result : undefined}
      />
    </div>
  );
}
