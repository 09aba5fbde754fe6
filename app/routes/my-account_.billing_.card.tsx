import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { formatPublished } from "~/app/lib/content/format";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { redirect } from "~/app/lib/http/responses.server";
import { billingPage, cardChanged, changeCard } from "~/app/lib/subscriptions/billing.server";
import { priceWithTax } from "~/server/billing/tax";

const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * Changing the card on file. The page says what happens and sends the reader to the provider's
 * secure page (a plain form post); the provider sends them back here with its session id, and
 * the card goes on file (an overdue renewal is charged to it at once).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (sessionId !== null) {
    if (!SESSION_ID.test(sessionId)) throw new Response("This link is not a card change.", { status: 400 });
    const outcome = await cardChanged(user.id, sessionId);
    const notice = outcome === "provider-unavailable" ? outcome : outcome === "unknown" ? "card-unchanged" : `card-${outcome}`;
    return redirect(`/my-account/billing?updated=${notice}`, 303);
  }
  const overview = await billingPage(user.id);
  if (overview.kind !== "web" || overview.billingStatus === null || overview.billingStatus === "ended")
    throw redirect("/my-account/billing");
  return {
    planName: overview.planName,
    card: overview.card,
    overdue: overview.dunning
      ? { amount: priceWithTax(overview.renewal.priceCents, overview.renewal.tax), graceEnd: formatPublished(overview.dunning.graceEnd) }
      : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await readForm(request);
  const user = await requireUser({ request, context });
  const started = await changeCard(user);
  if (started === "provider-unavailable") return redirect("/my-account/billing?updated=provider-unavailable", 303);
  if (!started) return redirect("/my-account/billing", 303);
  return redirect(started.url, 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Change your card",
    description: "Put a new card on file for your subscription.",
    path: "/my-account/billing/card",
  });

export default function ChangeCard() {
  const { planName, card, overdue } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Change your card</h1>
      <p>
        {card ? (
          <>
            Your {planName} subscription is paid with your {card.brand} card ending in {card.last4}.{" "}
          </>
        ) : null}
        You will enter the new card on our payment provider&apos;s secure page; we never see or keep its full number.
      </p>
      {overdue ? (
        <p className={forms.formMessage} role="alert">
          Your renewal payment of {overdue.amount} is overdue. We will charge it to the new card as soon as you add it. Your access
          continues until {overdue.graceEnd}.
        </p>
      ) : (
        <p>Nothing is charged now: the new card is used from your next renewal.</p>
      )}
      <Form method="post" className={forms.form}>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Continue to the secure page
          </button>
          <Link to="/my-account/billing">Keep my current card</Link>
        </div>
      </Form>
    </div>
  );
}
