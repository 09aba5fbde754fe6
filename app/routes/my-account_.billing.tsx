import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  BillingAddressFields,
  submittedAddress,
  type BillingAddressOptions,
  type FieldErrors,
} from "~/app/components/account/BillingAddressFields";
import * as css from "~/app/components/account/billing.css";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { formatPublished } from "~/app/lib/content/format";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { redirect } from "~/app/lib/http/responses.server";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { billingAddressOptions, billingPage, changeAddress, resumePlan } from "~/app/lib/subscriptions/billing.server";
import { billingAddressSchema } from "~/app/lib/subscriptions/billing-forms";
import { formatUsd } from "~/shared/money";
import { priceWithTax } from "~/server/billing/tax";
import { describeBillingAddress, readBillingAddress } from "~/shared/billing-address";

/** The plans whose billing address can change: those still to be charged (ADR 070). */
const ADDRESS_CHANGEABLE = new Set(["active", "past_due", "cancel_at_period_end"]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const overview = await billingPage(user.id);
  const updated = new URL(request.url).searchParams.get("updated");
  const ends = overview.kind === "web" ? formatPublished(overview.accessEnd) : "";
  const status = overview.kind === "web" ? overview.billingStatus : null;
  const card = overview.kind === "web" && overview.card ? `${overview.card.brand} card ending in ${overview.card.last4}` : "new card";
  const renewal = overview.kind === "web" ? priceWithTax(overview.renewal.priceCents, overview.renewal.tax) : "";
  const billedTo = overview.kind === "web" && overview.billingAddress ? describeBillingAddress(overview.billingAddress) : null;
  const notices: Record<string, string | null> = {
    cancelled:
      status === "cancel_at_period_end"
        ? `Your subscription has been cancelled. You keep full access until ${ends}, and we have sent you an email confirming this.`
        : null,
    resumed: status === "active" ? `Your subscription has been resumed. It renews on ${ends}.` : null,
    "card-updated": `Your ${card} is now on file. It will be used from your next renewal.`,
    "card-paid": `Your ${card} is now on file, and your overdue payment went through: your subscription is active again and renews on ${ends}. We have emailed your receipt.`,
    "card-declined": `Your ${card} is now on file, but it declined the overdue payment. We will try it again; you can also add another card.`,
    "card-unchanged": "Your card was not changed: the secure page did not save a new card.",
    upgraded: `Your plan is now ${overview.kind === "web" ? overview.planName : "changed"}. We have emailed your receipt.`,
    "downgrade-scheduled":
      overview.kind === "web" && overview.scheduledPlan
        ? `Your plan changes to ${overview.scheduledPlan.name} when it renews on ${ends}.`
        : null,
    "upgrade-declined": "Your card declined the payment, so your plan has not changed. You can change your card and try again.",
    "plan-unchanged": "Your plan has not changed.",
    "provider-unavailable": "We could not reach our payment provider, so nothing has changed. Please try again in a few minutes.",
    "plan-kept": `You keep ${overview.kind === "web" ? overview.planName : "your plan"}: it renews as before.`,
    address:
      status === "active"
        ? `Your billing address is now ${billedTo}. Your renewal on ${ends} will be ${renewal}.`
        : `Your billing address is now ${billedTo}.`,
  };
  const failure = new Set(["card-declined", "card-unchanged", "upgrade-declined", "plan-unchanged", "provider-unavailable"]);
  return {
    notice: updated ? (notices[updated] ?? null) : null,
    noticeIsProblem: updated !== null && failure.has(updated),
    overview,
    renewal,
    billedTo,
    // The form that changes it, for a plan still to be charged.
    addressForm:
      overview.kind === "web" && ADDRESS_CHANGEABLE.has(status ?? "")
        ? {
            options: billingAddressOptions(),
            values: { countryCode: overview.billingAddress?.countryCode ?? "", region: overview.billingAddress?.region ?? "" },
          }
        : null,
    invoices: overview.invoices.map((i) => ({
      id: i.id,
      number: i.number,
      issued: formatPublished(i.issued),
      amount: formatUsd(i.amountCents),
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requireUser({ request, context });
  if (form.get("intent") === "address") {
    const submission = parseWithZod(form, { schema: billingAddressSchema });
    if (submission.status !== "success") return rejectForm(submission);
    const outcome = await changeAddress(user.id, readBillingAddress(submission.value));
    if (typeof outcome === "object")
      return rejectForm(submission, { fieldErrors: Object.fromEntries(Object.entries(outcome.fields).map(([f, m]) => [f, [m]])) });
    return redirect(
      `/my-account/billing${outcome === "changed" ? "?updated=address" : outcome === "provider-unavailable" ? `?updated=${outcome}` : ""}`,
      303,
    );
  }
  if (form.get("intent") !== "resume") throw new Response("Unknown request", { status: 400 });
  const outcome = await resumePlan(user.id);
  return redirect(`/my-account/billing?updated=${outcome === "provider-unavailable" ? outcome : "resumed"}`, 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Subscription and billing",
    description: "Your plan, its renewal, your card on file and your invoices.",
    path: "/my-account/billing",
  });

export default function Billing() {
  const { notice, noticeIsProblem, overview, invoices, renewal, billedTo, addressForm } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>()?.result;
  return (
    <div className={prose.narrow}>
      <h1>Subscription and billing</h1>
      <p>
        <Link to="/my-account">Back to My account</Link>
      </p>
      {notice ? (
        <p className={noticeIsProblem ? forms.formMessage : forms.success} role={noticeIsProblem ? "alert" : "status"}>
          {notice}
        </p>
      ) : null}
      <section aria-labelledby="plan-heading" className={prose.section}>
        <h2 id="plan-heading">Your plan</h2>
        <Plan overview={overview} renewal={renewal} billedTo={billedTo} />
      </section>
      {addressForm ? (
        <section aria-labelledby="address-heading" className={prose.section} id="billing-address">
          <h2 id="address-heading">Billing address</h2>
          <AddressForm
            billedTo={billedTo}
            errors={failed?.error}
            options={addressForm.options}
            values={failed ? submittedAddress(failed.initialValue) : addressForm.values}
          />
        </section>
      ) : null}
      <section aria-labelledby="invoices-heading" className={prose.section}>
        <h2 id="invoices-heading">Invoices</h2>
        {invoices.length === 0 ? (
          <p>You have no invoices yet.</p>
        ) : (
          <ul className={css.invoices}>
            {invoices.map((i) => (
              <li key={i.id} className={css.invoice}>
                <span>
                  <strong>{i.number}</strong> <span className={css.invoiceMeta}>{i.issued}</span>
                </span>
                <span>{i.amount}</span>
                <a href={`/my-account/billing/invoices/${i.id}`} download>
                  Download PDF<span className="visually-hidden"> of invoice {i.number}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type Overview = ReturnType<typeof useLoaderData<typeof loader>>["overview"];

function Plan({ overview, renewal, billedTo }: { overview: Overview; renewal: string; billedTo: string | null }) {
  if (overview.kind === "none")
    return (
      <p>
        You do not have a subscription. <Link to="/subscriptions">See our plans</Link>
      </p>
    );
  const until = formatPublished(overview.accessEnd);
  if (overview.kind === "print")
    return (
      <>
        <p>
          Your print subscription is kept in our subscriber records and does not renew through this site. To renew or change it, contact
          customer service and quote your account number.
        </p>
        <dl className={css.facts}>
          <dt className={css.term}>Account number</dt>
          <dd className={css.value}>{overview.accountNumber}</dd>
          <dt className={css.term}>Access until</dt>
          <dd className={css.value}>{until}</dd>
        </dl>
      </>
    );
  const price = `${formatUsd(overview.priceCents)} a ${overview.period}`;
  const status = overview.billingStatus;
  return (
    <>
      <dl className={css.facts}>
        <dt className={css.term}>Plan</dt>
        <dd className={css.value}>
          {overview.planName}, {price}
        </dd>
        {status === "active" && overview.scheduledPlan ? (
          <>
            <dt className={css.term}>Next renewal</dt>
            <dd className={css.value}>
              {until}: changes to {overview.scheduledPlan.name}, {renewal} a {overview.scheduledPlan.period}
            </dd>
          </>
        ) : status === "active" ? (
          <>
            <dt className={css.term}>Next renewal</dt>
            <dd className={css.value}>
              {until}, {renewal}
            </dd>
          </>
        ) : status === "cancel_at_period_end" ? (
          <>
            <dt className={css.term}>Status</dt>
            <dd className={css.value}>Cancelled: ends on {until}. It will not renew.</dd>
          </>
        ) : status === "past_due" && overview.dunning ? (
          <>
            <dt className={css.term}>Status</dt>
            <dd className={css.value}>
              Payment overdue: your renewal payment of {renewal} was declined.{" "}
              {overview.dunning.nextRetry ? `We will try your card again on ${formatPublished(overview.dunning.nextRetry)}. ` : null}
              You keep full access until {formatPublished(overview.dunning.graceEnd)}; unless it is paid by then, your subscription ends.
            </dd>
          </>
        ) : (
          <>
            <dt className={css.term}>Access until</dt>
            <dd className={css.value}>{until}. This plan does not renew by itself.</dd>
          </>
        )}
        {status === "active" || status === "past_due" || status === "cancel_at_period_end" ? (
          <>
            <dt className={css.term}>Billing address</dt>
            <dd className={css.value}>
              {billedTo ?? "None on file. Please add it: the sales tax it calls for is charged from your next payment."}{" "}
              <a href="#billing-address">{billedTo ? "Change billing address" : "Add your billing address"}</a>
            </dd>
          </>
        ) : null}
        {overview.card ? (
          <>
            <dt className={css.term}>Card on file</dt>
            <dd className={css.value}>
              {overview.card.brand} ending in {overview.card.last4}
            </dd>
          </>
        ) : null}
      </dl>
      {status === "past_due" ? (
        <p>
          <Link to="/my-account/billing/card" className={primaryButton}>
            Update your card
          </Link>
        </p>
      ) : null}
      {status === "active" || status === "cancel_at_period_end" ? (
        <p>
          <Link to="/my-account/billing/card">Change card</Link>
        </p>
      ) : null}
      {status === "active" && overview.scheduledPlan ? (
        <Form method="post" action="/my-account/billing/plan">
          <input type="hidden" name="intent" value="keep" />
          <button type="submit" className={primaryButton}>
            Keep {overview.planName}
          </button>
        </Form>
      ) : null}
      {status === "active" ? (
        <p className={css.links}>
          <Link to="/my-account/billing/plan">Change plan</Link>
          <Link to="/my-account/billing/cancel">Cancel subscription</Link>
        </p>
      ) : status === "cancel_at_period_end" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="resume" />
          <p>Changed your mind? Resume before {until} and your plan renews as before.</p>
          <button type="submit" className={primaryButton}>
            Resume subscription
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** Where the subscriber is billed, which the sales tax on their next payments follows; the form opens on a problem. */
function AddressForm({
  billedTo,
  errors,
  options,
  values,
}: {
  billedTo: string | null;
  errors: FieldErrors;
  options: BillingAddressOptions;
  values: { countryCode: string; region: string };
}) {
  return (
    <>
      <p>
        {billedTo ? null : "We have no billing address for you yet. "}Sales tax follows your billing address: we collect it in the US states
        where we have to, and Canada&apos;s GST. A new address applies from your next payment; your invoices so far do not change.
      </p>
      <details open={Boolean(errors)}>
        <summary>{billedTo ? "Change billing address" : "Add your billing address"}</summary>
        {errors ? (
          <p className={forms.formMessage} role="alert">
            Please check your billing address.
          </p>
        ) : null}
        <Form method="post" className={forms.form}>
          <input type="hidden" name="intent" value="address" />
          <BillingAddressFields options={options} values={values} errors={errors} />
          <div className={forms.actions}>
            <button type="submit" className={primaryButton}>
              Save billing address
            </button>
          </div>
        </Form>
      </details>
    </>
  );
}
