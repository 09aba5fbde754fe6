import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { currentWebPlan } from "~/server/subscriptions/plan-change";
import { PLANS, planTerms } from "~/server/subscriptions/plans";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "~/app/components/subscriptions.css";
import { db } from "~/app/lib/context/db.server";
import { formatPublished, formatUsd } from "~/app/lib/content/format";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { pageCard } from "~/shared/page-cards";
import { requestContext } from "~/app/lib/context/request-context.server";
import { billingPage, plansRenew, readerBillingAddress } from "~/app/lib/subscriptions/billing.server";
import { byRank } from "~/server/subscriptions/tiers";
import { subscriptionTax } from "~/server/billing/tax";
import { describeBillingAddress } from "~/shared/billing-address";

/** The A/B tag the paywall's call to action carried, kept through checkout for reporting. */
export function abTagFrom(url: URL): string {
  const tag = url.searchParams.get("ab") ?? "";
  return /^[A-Za-z0-9_-]{1,40}$/.test(tag) ? tag : "direct";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requestContext({ request, context }).user();
  const database = await db();
  const subscriber = await requestContext({ request, context }).subscriber();
  // A reader with a web plan changes it (or renews it): a second plan is never added beside it.
  const webPlan = user ? await currentWebPlan(database, user.id) : null;
  const renews = await plansRenew();
  // One that renews with a card on file changes in Subscription and billing, prorated.
  const overview = webPlan && user ? await billingPage(user.id) : null;
  const renewing = overview?.kind === "web" && overview.billingStatus === "active";
  // A reader who has given a billing address sees each price with the tax they would be charged.
  const address = user ? await readerBillingAddress(user.id) : null;
  return {
    renews,
    ab: abTagFrom(new URL(request.url)),
    billedTo: address && describeBillingAddress(address),
    plans: PLANS.map((p) => {
      const tax = address && subscriptionTax(p.priceCents, address);
      return {
        id: p.id,
        upgrade: webPlan ? byRank(p.roleCode, webPlan.plan.roleCode) < 0 : false,
        name: p.name,
        price: formatUsd(p.priceCents),
        period: p.period,
        summary: p.summary,
        benefits: p.benefits,
        withTax: tax && `plus ${tax.label} ${formatUsd(tax.cents)}: ${formatUsd(p.priceCents + tax.cents)} a ${p.period}`,
        terms: planTerms(p, renews, tax),
      };
    }),
    webPlan: webPlan && {
      id: webPlan.plan.id,
      name: webPlan.plan.name,
      accessEnd: formatPublished(webPlan.accessEnd),
      renewing,
    },
    current: subscriber && !webPlan ? { tier: subscriber.tier.name, accessEnd: subscriber.entitlements[0]!.accessEnd } : null,
  };
}

export const meta: MetaFunction = ({ matches }) =>
  seo({
    title: "Subscribe",
    description:
      "Unlimited access to every article, video and podcast, the magazine archive since 1956, and subscriber features. Plans from $12.00 a month.",
    path: "/subscriptions",
    siteUrl: siteUrlFrom(matches),
    card: pageCard("subscriptions"),
  });

export default function Subscriptions() {
  const { ab, plans, webPlan, current, renews, billedTo } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1>Subscribe to Meridian Review</h1>
      <p>
        Read without limits, on any device.{" "}
        {renews
          ? "Plans renew each month or year at their price until you cancel, which you can do at any time from Subscription and billing."
          : "Each payment covers one month or one year, and nothing renews by itself."}{" "}
        {billedTo
          ? `Prices with tax are for your billing address, ${billedTo}.`
          : "Prices are before sales tax, which we add in the US states where we collect it and in Canada (GST); you see yours before you pay."}
      </p>
      {webPlan?.renewing ? (
        <div className={css.summary} role="status">
          <p>
            Your plan: <strong>{webPlan.name}</strong>, which renews on {webPlan.accessEnd}.
          </p>
          <p>
            To change it, choose another plan below. An upgrade starts today and you pay only the difference for the rest of this period; a
            downgrade starts when your plan renews.
          </p>
        </div>
      ) : webPlan ? (
        <div className={css.summary} role="status">
          <p>
            Your plan: <strong>{webPlan.name}</strong>, with access until {webPlan.accessEnd}.
          </p>
          <p>
            To change your plan, choose another one below: it replaces {webPlan.name}, and the time you have left carries over. Choosing{" "}
            {webPlan.name} again renews it.
          </p>
        </div>
      ) : current ? (
        <p className={css.summary} role="status">
          You subscribe to {current.tier}, with access until {current.accessEnd.slice(0, 10)}. Choosing another plan adds it to your
          account.
        </p>
      ) : null}
      <ul className={css.plans}>
        {plans.map((plan) => (
          <li key={plan.id} className={css.plan} aria-labelledby={`plan-${plan.id}`}>
            <h2 id={`plan-${plan.id}`} className={css.planName}>
              {plan.name}
            </h2>
            <p className={css.price}>
              {plan.price} <span>a {plan.period}</span>
              {plan.withTax ? (
                <>
                  <br />
                  <span className={css.withTax}>{plan.withTax}</span>
                </>
              ) : null}
            </p>
            <p>{plan.summary}</p>
            <ul>
              {plan.benefits.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
            <p className={css.terms}>{plan.terms}</p>
            {webPlan?.id === plan.id ? <p className={css.currentPlan}>Your plan</p> : null}
            {webPlan?.renewing ? (
              <Link
                className={primaryButton}
                to={webPlan.id === plan.id ? "/my-account/billing" : `/my-account/billing/plan?to=${plan.id}`}
                aria-describedby={`plan-${plan.id}`}
              >
                {webPlan.id === plan.id
                  ? "Manage your plan"
                  : plan.upgrade
                    ? `Upgrade to ${plan.name}`
                    : `Change to ${plan.name} at renewal`}
              </Link>
            ) : (
              <Link
                className={primaryButton}
                to={`/subscriptions/checkout?plan=${plan.id}&ab=${encodeURIComponent(ab)}`}
                aria-describedby={`plan-${plan.id}`}
              >
                {!webPlan ? `Choose ${plan.name}` : webPlan.id === plan.id ? `Renew ${plan.name}` : `Change to ${plan.name}`}
              </Link>
            )}
          </li>
        ))}
      </ul>
      <p>
        Already subscribe to the print edition? <Link to="/subscriber-registration">Link your print subscription</Link> to read online at no
        extra cost.
      </p>
    </div>
  );
}
