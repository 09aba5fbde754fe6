import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { findPlan, planTerms } from "~/server/subscriptions/plans";
import { issueCheckoutKey, startCheckout } from "~/server/subscriptions/checkout";
import { planChangeFor } from "~/server/subscriptions/plan-change";
import { subscriptionTax } from "~/server/billing/tax";
import { describeBillingAddress, readBillingAddress } from "~/shared/billing-address";
import { primaryButton } from "~/app/components/controls.css";
import { BillingAddressFields, submittedAddress, type FieldErrors } from "~/app/components/account/BillingAddressFields";
import * as forms from "~/app/components/forms/forms.css";
import { SubscriptionHeading } from "~/app/components/steps/StepHeading";
import * as css from "~/app/components/subscriptions.css";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { payments } from "~/app/lib/store/payments.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { GENERIC_ERROR } from "~/app/lib/forms/cross-site";
import { RegistrationForm } from "~/app/components/account/RegistrationForm";
import { billingAddressSchema, checkoutPaySchema } from "~/app/lib/subscriptions/billing-forms";
import { abTagFrom } from "./subscriptions";
import { log } from "~/server/log";
import { requestContext, requireUser } from "~/app/lib/context/request-context.server";
import { billingAddressOptions, planChoice, plansRenew, readerBillingAddress } from "~/app/lib/subscriptions/billing.server";

/**
 * Spec "Subscription checkout": INITIAL until the reader has an account, then CHECKOUT, in two
 * steps: the billing address sales tax follows (a GET form, so the figures that follow are a
 * page of their own), then the price with that tax, to the cent, and the payment (ADR 070).
 */
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
  const renews = await plansRenew();
  const ab = abTagFrom(url);
  // The address step's answer: checked as the payment will check it; the figures only once it passes.
  const asked = user && url.searchParams.has("countryCode") ? parseWithZod(url.searchParams, { schema: billingAddressSchema }) : null;
  const address = asked?.status === "success" ? readBillingAddress(asked.value) : null;
  const tax = address && subscriptionTax(plan.priceCents, address);
  const known = user && !asked ? await readerBillingAddress(user.id) : null;
  const page = {
    state,
    ab,
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
      terms: planTerms(plan, renews, tax),
    },
    addressStep: {
      options: billingAddressOptions(),
      errors: asked?.status === "error" ? asked.error : undefined,
      values: {
        countryCode: url.searchParams.get("countryCode") ?? known?.countryCode ?? "",
        region: url.searchParams.get("region") ?? known?.region ?? "",
      },
    },
    review:
      address && tax
        ? {
            address,
            billedTo: describeBillingAddress(address),
            taxLabel: tax.label,
            tax: formatUsd(tax.cents),
            total: formatUsd(plan.priceCents + tax.cents),
            changeAddress: `/subscriptions/checkout?${new URLSearchParams({ plan: plan.id, ab, countryCode: address.countryCode, region: address.region ?? "", edit: "1" })}`,
          }
        : null,
  };
  // Asked to change the address: its form again, with what was given.
  if (url.searchParams.has("edit")) page.review = null;
  return asked?.status === "error" ? data(page, { status: 400 }) : page;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const url = new URL(request.url);
  const plan = planFrom(url);
  const user = await requireUser({ request, context });
  const renewing = await planChoice(user.id, plan.id);
  if (renewing === "same-plan") return redirect("/my-account/billing", 303);
  if (renewing === "change") return redirect(`/my-account/billing/plan?to=${plan.id}`, 303);
  const submission = parseWithZod(form, { schema: checkoutPaySchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { checkoutKey, company, taxId } = submission.value;
  try {
    const started = await startCheckout(await db(), await payments(), {
      userId: user.id,
      email: user.email,
      plan,
      abTag: abTagFrom(url),
      siteUrl: config().siteUrl,
      // A post without the form's key (an old page, a script) starts a checkout of its own.
      idempotencyKey: checkoutKey ?? issueCheckoutKey(),
      renews: await plansRenew(),
      billing: readBillingAddress(submission.value),
      company,
      taxId,
    });
    if (!started.ok && started.problem === "bad-address")
      return rejectForm(submission, { fieldErrors: Object.fromEntries(Object.entries(started.fields).map(([f, m]) => [f, [m]])) });
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

type Page = ReturnType<typeof useLoaderData<typeof loader>>;
type Failure = { error?: string; result?: SubmissionResult<string[]> } | undefined;

export default function SubscriptionCheckout() {
  const page = useLoaderData<typeof loader>();
  const { state, here, email, region, plan } = page;
  const failed = useActionData<typeof action>() as Failure;
  const step = state === "INITIAL" ? 1 : page.review ? 3 : 2;
  return (
    <div>
      <SubscriptionHeading step={step} title={`Subscribe: ${plan.name}`} />
      <div className={css.summary}>
        <p>
          <strong>{plan.name}</strong>: {plan.price} a {plan.period}
          {page.review ? `, plus ${page.review.taxLabel} ${page.review.tax}` : ", plus sales tax where it applies"}
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
      ) : page.review ? (
        <ReviewStep page={page} failed={failed} email={email} />
      ) : (
        <AddressStep
          page={page}
          errors={failed?.result?.error ?? page.addressStep.errors}
          values={failed?.result ? submittedAddress(failed.result.initialValue) : page.addressStep.values}
        />
      )}
    </div>
  );
}

/** The address step: a GET form, so the figures it leads to are a page of their own. */
function AddressStep({ page, errors, values }: { page: Page; errors: FieldErrors; values: { countryCode: string; region: string } }) {
  return (
    <>
      <h2>Your billing address</h2>
      <p>
        We add sales tax where you are billed: in the US states where we collect it, and Canada&apos;s GST. You see the amount before you
        pay.
      </p>
      {errors ? (
        <p className={forms.formMessage} role="alert">
          Please check your billing address.
        </p>
      ) : null}
      <Form method="get" className={forms.form}>
        <input type="hidden" name="plan" value={page.plan.id} />
        <input type="hidden" name="ab" value={page.ab} />
        <BillingAddressFields options={page.addressStep.options} values={values} errors={errors} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Continue
          </button>
        </div>
      </Form>
    </>
  );
}

function ReviewStep({ page, failed, email }: { page: Page; failed: Failure; email: string | null }) {
  const review = page.review!;
  const busy = useNavigation().state !== "idle";
  const { change, plan } = page;
  const errors = failed?.result?.error;
  return (
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
      <div className={css.summary}>
        <p>
          {plan.name}, one {plan.period}: {plan.price}
        </p>
        <p>
          {review.taxLabel}: {review.tax}
        </p>
        <p>
          Total today: <strong>{review.total}</strong>
        </p>
        <p>
          Billing address: {review.billedTo}. <Link to={review.changeAddress}>Change billing address</Link>
        </p>
      </div>
      <p>Signed in as {email}. You will pay on our payment provider&apos;s secure page and come back here for your receipt.</p>
      {failed?.error || errors ? (
        <p className={forms.formMessage} role="alert" id="checkout-error">
          {failed?.error ?? Object.values(errors ?? {}).flat()[0]}
        </p>
      ) : null}
      <Form method="post" className={forms.form}>
        {page.checkoutKey ? <input type="hidden" name="checkoutKey" value={page.checkoutKey} /> : null}
        <input type="hidden" name="countryCode" value={review.address.countryCode} />
        <input type="hidden" name="region" value={review.address.region ?? ""} />
        <TextInput name="company" label="Company (optional)" hint="Printed on your invoices." max={100} autoComplete="organization" />
        <TextInput name="taxId" label="Tax ID (optional)" hint="For example a VAT or GST number, printed on your invoices." max={40} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={busy}>
            {change?.kind === "change" ? `Change to ${plan.name} and pay` : "Continue to payment"}
          </button>
        </div>
      </Form>
    </>
  );
}

function TextInput({
  name,
  label,
  hint,
  max,
  autoComplete = "off",
}: {
  name: string;
  label: string;
  hint: string;
  max: number;
  autoComplete?: string;
}) {
  return (
    <div className={forms.field}>
      <label className={forms.label} htmlFor={`checkout-${name}`}>
        {label}
      </label>
      <div id={`checkout-${name}-hint`} className={forms.hint}>
        {hint}
      </div>
      <input
        id={`checkout-${name}`}
        name={name}
        className={forms.input}
        maxLength={max}
        autoComplete={autoComplete}
        aria-describedby={`checkout-${name}-hint`}
      />
    </div>
  );
}
