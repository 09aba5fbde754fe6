import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import * as css from "~/app/components/account/billing.css";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { formatPublished } from "~/app/lib/content/format";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { redirect } from "~/app/lib/http/responses.server";
import { billingPage, changePlanTo, keepPlan, planQuote } from "~/app/lib/subscriptions/billing.server";
import { PLANS } from "~/server/subscriptions/plans";
import { byRank } from "~/server/subscriptions/tiers";
import { formatUsd } from "~/shared/money";
import { priceWithTax, subscriptionTax } from "~/server/billing/tax";

const changeSchema = z.object({ intent: z.literal("change"), to: z.string().max(40), quotedAt: z.string().max(40) });
const keepSchema = z.object({ intent: z.literal("keep") });

/**
 * Changing plan: the plans beside the reader's own, then, for the one chosen (?to=), what the
 * change means — an upgrade's charge today, worked out to the cent, or a downgrade's date — and
 * a form that confirms exactly that.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const url = new URL(request.url);
  const overview = await billingPage(user.id);
  if (overview.kind !== "web" || overview.billingStatus !== "active") throw redirect("/my-account/billing");
  const to = url.searchParams.get("to");
  const current = PLANS.find((p) => p.name === overview.planName)!;
  const choices = PLANS.filter((p) => p.id !== current.id).map((p) => ({
    id: p.id,
    name: p.name,
    price: `${priceWithTax(p.priceCents, subscriptionTax(p.priceCents, overview.billingAddress))} a ${p.period}`,
    summary: p.summary,
    upgrade: byRank(p.roleCode, current.roleCode) < 0,
  }));
  if (to === null) return { current: current.name, renews: formatPublished(overview.accessEnd), choices, quote: null, stale: false };
  const quote = await planQuote(user.id, to);
  if (quote === "unknown-plan") throw new Response("No such plan", { status: 404 });
  if (quote === "provider-unavailable") throw redirect("/my-account/billing?updated=provider-unavailable");
  if (typeof quote === "string") throw redirect("/my-account/billing/plan");
  return {
    current: current.name,
    renews: formatPublished(overview.accessEnd),
    choices,
    stale: url.searchParams.has("stale"),
    quote: {
      kind: quote.kind,
      to: quote.to.id,
      toName: quote.to.name,
      toPrice: `${priceWithTax(quote.to.priceCents, quote.renewalTax)} a ${quote.to.period}`,
      quotedAt: quote.quotedAt,
      newPlan: formatUsd(quote.newPlanCents),
      credit: formatUsd(quote.creditCents),
      amount: formatUsd(quote.amountCents),
      taxLabel: quote.tax.label,
      tax: formatUsd(quote.tax.cents),
      total: formatUsd(quote.amountCents + quote.tax.cents),
      startsAt: formatPublished(quote.startsAt),
      periodEnd: formatPublished(quote.periodEnd),
      newYear: quote.kind === "upgrade" && quote.from.months !== quote.to.months,
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const user = await requireUser({ request, context });
  if (keepSchema.safeParse(form).success) {
    const kept = await keepPlan(user.id);
    return redirect(`/my-account/billing?updated=${kept === "provider-unavailable" ? kept : "plan-kept"}`, 303);
  }
  const change = changeSchema.safeParse(form);
  if (!change.success) throw new Response("Choose a plan to change to.", { status: 400 });
  const outcome = await changePlanTo(user.id, change.data.to, change.data.quotedAt);
  if (outcome === "stale") return redirect(`/my-account/billing/plan?${new URLSearchParams({ to: change.data.to, stale: "1" })}`, 303);
  const notice = {
    upgraded: "upgraded",
    scheduled: "downgrade-scheduled",
    declined: "upgrade-declined",
    unchanged: "plan-unchanged",
    "provider-unavailable": "provider-unavailable",
  }[outcome];
  return redirect(`/my-account/billing?updated=${notice}`, 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Change plan",
    description: "Move to another plan: an upgrade starts today, a downgrade at your next renewal.",
    path: "/my-account/billing/plan",
  });

export default function ChangePlan() {
  const { current, renews, choices, quote, stale } = useLoaderData<typeof loader>();
  if (quote)
    return (
      <div className={prose.narrow}>
        <h1>{quote.kind === "upgrade" ? `Upgrade to ${quote.toName}` : `Change to ${quote.toName} at renewal`}</h1>
        {stale ? (
          <p className={forms.formMessage} role="alert">
            Time has passed since you opened this page, so we have worked the price out again. Please check it and confirm.
          </p>
        ) : null}
        {quote.kind === "upgrade" ? (
          <>
            <p>
              Your plan changes from {current} to {quote.toName} today, and you can read everything in {quote.toName} at once.{" "}
              {quote.newYear
                ? `Your new yearly plan runs from today to ${quote.periodEnd}, then renews at ${quote.toPrice}.`
                : `It renews on ${quote.periodEnd} at ${quote.toPrice}.`}
            </p>
            <dl className={css.facts}>
              <dt className={css.term}>{quote.newYear ? `${quote.toName}, a year from today` : `${quote.toName} to ${quote.periodEnd}`}</dt>
              <dd className={css.value}>{quote.newPlan}</dd>
              <dt className={css.term}>Less the unused part of {current}</dt>
              <dd className={css.value}>−{quote.credit}</dd>
              <dt className={css.term}>Subtotal</dt>
              <dd className={css.value}>{quote.amount}</dd>
              <dt className={css.term}>{quote.taxLabel}</dt>
              <dd className={css.value}>{quote.tax}</dd>
              <dt className={css.term}>To pay today</dt>
              <dd className={css.value}>
                <strong>{quote.total}</strong>, charged to your card on file
              </dd>
            </dl>
          </>
        ) : (
          <p>
            You keep {current} until {quote.startsAt}. Then your plan changes to {quote.toName} and renews at {quote.toPrice}. Nothing is
            charged today.
          </p>
        )}
        <Form method="post" className={forms.form}>
          <input type="hidden" name="intent" value="change" />
          <input type="hidden" name="to" value={quote.to} />
          <input type="hidden" name="quotedAt" value={quote.quotedAt} />
          <div className={forms.actions}>
            <button type="submit" className={primaryButton}>
              {quote.kind === "upgrade" ? `Upgrade and pay ${quote.total}` : "Confirm the change"}
            </button>
            <Link to="/my-account/billing/plan">Choose another plan</Link>
          </div>
        </Form>
      </div>
    );
  return (
    <div className={prose.narrow}>
      <h1>Change plan</h1>
      <p>
        You have {current}, which renews on {renews}. An upgrade starts today and you pay only the difference for the rest of this period; a
        downgrade starts when your plan renews.
      </p>
      <ul className={css.invoices}>
        {choices.map((c) => (
          <li key={c.id} className={css.invoice}>
            <span>
              <strong>{c.name}</strong>, {c.price}
              <br />
              <span className={css.invoiceMeta}>{c.summary}</span>
            </span>
            <Link to={`/my-account/billing/plan?to=${c.id}`}>{c.upgrade ? `Upgrade to ${c.name}` : `Change to ${c.name} at renewal`}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/my-account/billing">Back to Subscription and billing</Link>
      </p>
    </div>
  );
}
