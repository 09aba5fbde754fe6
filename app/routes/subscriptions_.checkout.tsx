import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { findPlan, planTerms } from "~/server/subscriptions/plans";
import { issueCheckoutKey, startCheckout } from "~/server/subscriptions/checkout";
import { planChangeFor } from "~/server/subscriptions/plan-change";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "~/app/components/subscriptions.css";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { payments } from "~/app/lib/store/payments.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { GENERIC_ERROR } from "~/app/lib/forms/cross-site";
import { RegistrationForm } from "~/app/components/account/RegistrationForm";
import { abTagFrom } from "./subscriptions";
import { log } from "~/server/log";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";
import { planChoice, plansRenew } from "~/app/lib/subscriptions/billing.server";

/** Spec "Subscription checkout": INITIAL until the reader has an account, then CHECKOUT. */
type CheckoutState = "INITIAL" | "CHECKOUT";

function planFrom(url: URL) {
  const plan = findPlan(url.searchParams.get("plan") ?? "");
  if (!plan) throw new Response("No such plan", { status: 404 });
  return plan;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const plan = planFrom(url);
  const user = await requestContext({ request, context }).user();
  // A plan that renews with a card on file changes in Subscription and billing (prorated), not by buying another.
  const renewing = user ? await planChoice(user.id, plan.id) : null;
  if (renewing === "same-plan") throw redirect("/my-account/billing");
  if (renewing === "change") throw redirect(`/my-account/billing/plan?to=${plan.id}`);
  const state: CheckoutState = user ? "CHECKOUT" : "INITIAL";
  const change = user ? await planChangeFor(await db(), user.id, plan) : null;
  return {
    state,
    // A fresh key for every showing of the form: the same form posted again reuses its checkout.
    checkoutKey: user ? issueCheckoutKey() : null,
    change: change && {
      kind: change.kind,
      currentPlan: change.current.plan.name,
      currentEnd: formatPublished(change.current.accessEnd),
      newEnd: formatPublished(change.newAccessEnd),
    },
    here: `${url.pathname}${url.search}`,
    email: user?.email ?? null,
    region: user ? "other" : await visitorRegion(request, context),
    plan: {
      id: plan.id,
      name: plan.name,
      price: formatUsd(plan.priceCents),
      period: plan.period,
      terms: planTerms(plan, await plansRenew()),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const url = new URL(request.url);
  const plan = planFrom(url);
  const user = await requireUser({ request, context });
  const renewing = await planChoice(user.id, plan.id);
  if (renewing === "same-plan") return redirect("/my-account/billing", 303);
  if (renewing === "change") return redirect(`/my-account/billing/plan?to=${plan.id}`, 303);
  // A post without the form's key (an old page, a script) starts a checkout of its own.
  const key = form.get("checkoutKey");
  try {
    const started = await startCheckout(await db(), await payments(), {
      userId: user.id,
      email: user.email,
      plan,
      abTag: abTagFrom(url),
      siteUrl: config().siteUrl,
      idempotencyKey: key === null ? issueCheckoutKey() : String(key),
      renews: await plansRenew(),
    });
    if (!started.ok)
      return data({ error: "This payment form has expired. Please check your plan and continue to payment again." }, { status: 409 });
    return redirect(started.url, 303);
  } catch (error) {
    log.error("subscription checkout could not start", { error });
    return data({ error: GENERIC_ERROR }, { status: 502 });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => [
  ...seo({
    title: page ? `Subscribe: ${page.plan.name}` : "Subscribe",
    description: "Complete your subscription.",
    path: "/subscriptions/checkout",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function SubscriptionCheckout() {
  const { state, here, email, region, plan, checkoutKey, change } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <div>
      <h1>Subscribe: {plan.name}</h1>
      <ol className={css.steps} aria-label="Steps">
        <li className={state === "INITIAL" ? css.currentStep : undefined} aria-current={state === "INITIAL" ? "step" : undefined}>
          1. Your account
        </li>
        <li className={state === "CHECKOUT" ? css.currentStep : undefined} aria-current={state === "CHECKOUT" ? "step" : undefined}>
          2. Payment
        </li>
        <li>3. Receipt</li>
      </ol>
      <div className={css.summary}>
        <p>
          <strong>{plan.name}</strong>: {plan.price} a {plan.period}
        </p>
        <p className={css.terms}>{plan.terms}</p>
        <p>
          <Link to="/subscriptions">Choose another plan</Link>
        </p>
      </div>
      {state === "INITIAL" ? (
        <>
          <h2>Create your account</h2>
          <p>
            Already have an account? <Link to={`/sign-in?redirectTo=${encodeURIComponent(here)}`}>Sign in</Link> to continue.
          </p>
          <RegistrationForm redirectTo={here} region={region} result={undefined} />
        </>
      ) : (
        <>
          <h2>{change?.kind === "change" ? "Change your plan" : change?.kind === "renew" ? "Renew your plan" : "Payment"}</h2>
          {change ? (
            <p className={css.summary} role="status">
              Your plan now: {change.currentPlan}, with access until {change.currentEnd}.{" "}
              {change.kind === "change"
                ? `${plan.name} replaces it as soon as you pay, and the time left carries over: your access then runs until ${change.newEnd}.`
                : `Paying again extends it: your access then runs until ${change.newEnd}.`}
            </p>
          ) : null}
          <p>Signed in as {email}. You will pay on our payment provider&apos;s secure page and come back here for your receipt.</p>
          {failed?.error ? (
            <p role="alert" id="checkout-error">
              {failed.error}
            </p>
          ) : null}
          <Form method="post">
            {checkoutKey ? <input type="hidden" name="checkoutKey" value={checkoutKey} /> : null}
            <button type="submit" className={primaryButton} disabled={busy}>
              {change?.kind === "change" ? `Change to ${plan.name} and pay` : "Continue to payment"}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
