import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { subscriberStatus } from "~/server/subscriptions/entitlements";
import { primaryButton } from "~/app/components/controls.css";
import * as css from "~/app/components/subscriptions.css";
import { db } from "~/app/lib/context/db.server";
import { formatPublished } from "~/app/lib/content/format";
import { priceWithTax } from "~/server/billing/tax";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { CUSTOMER_SERVICE } from "~/app/lib/forms/cross-site";
import { completeCheckout } from "~/app/lib/subscriptions/checkout.server";
import { requireUser } from "~/app/lib/context/request-context.server";

/**
 * The receipt (spec: closing it goes to the home page). It shows success only once the
 * subscription is active; until the provider confirms the payment it says so.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const checkout = await completeCheckout(user.id, new URL(request.url).searchParams.get("checkout") ?? "");
  if (!checkout) throw new Response("No such checkout", { status: 404 });
  const status = checkout.status === "activated" ? await subscriberStatus(await db(), user.id) : null;
  return {
    activated: checkout.status === "activated",
    checkoutId: checkout.id,
    plan: checkout.plan.name,
    amount: priceWithTax(checkout.amountCents, checkout.tax),
    period: checkout.plan.period,
    paidOn: checkout.activatedAt ? formatPublished(checkout.activatedAt) : null,
    accessEnd: status?.entitlements.find((e) => e.source === "web")?.accessEnd ?? null,
    email: user.email,
  };
}

export const meta: MetaFunction = ({ matches }) => [
  ...seo({
    title: "Your receipt",
    description: "Your subscription receipt.",
    path: "/subscriptions/receipt",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function Receipt() {
  const r = useLoaderData<typeof loader>();
  if (!r.activated) {
    return (
      <div>
        <h1>We are confirming your payment</h1>
        <p role="status">
          Your payment has not been confirmed yet, so your subscription is not active. This usually takes a few seconds:{" "}
          <Link to={`/subscriptions/receipt?checkout=${r.checkoutId}`}>check again</Link>. If it has not arrived within an hour, contact
          Customer Service at {CUSTOMER_SERVICE.phoneUsCanada} or <a href={`mailto:${CUSTOMER_SERVICE.email}`}>{CUSTOMER_SERVICE.email}</a>{" "}
          and quote {r.checkoutId}.
        </p>
      </div>
    );
  }
  return (
    <div>
      <h1>Thank you for subscribing</h1>
      <p role="status">Your {r.plan} subscription is active. You can now read everything on Meridian Review.</p>
      <dl className={css.summary}>
        <dt>Plan</dt>
        <dd>{r.plan}</dd>
        <dt>Amount paid</dt>
        <dd>
          {r.amount} for one {r.period}
        </dd>
        <dt>Date</dt>
        <dd>{r.paidOn}</dd>
        {r.accessEnd ? (
          <>
            <dt>Access until</dt>
            <dd>{formatPublished(r.accessEnd)}</dd>
          </>
        ) : null}
        <dt>Account</dt>
        <dd>{r.email}</dd>
        <dt>Reference</dt>
        <dd>{r.checkoutId}</dd>
      </dl>
      <p>
        <Link to="/welcome">See what your subscription includes</Link>
      </p>
      <Link className={primaryButton} to="/">
        Close
      </Link>
    </div>
  );
}
