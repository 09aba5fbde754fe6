import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { CANCEL_REASONS } from "~/shared/cancel-reasons";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as prose from "~/app/components/prose.css";
import { formatPublished } from "~/app/lib/content/format";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { redirect } from "~/app/lib/http/responses.server";
import { billingPage, cancelPlan } from "~/app/lib/subscriptions/billing.server";

const REASON_IDS = CANCEL_REASONS.map((r) => r.id) as [(typeof CANCEL_REASONS)[number]["id"], ...(typeof CANCEL_REASONS)[number]["id"][]];
const reasonSchema = z.union([z.literal(""), z.enum(REASON_IDS)]).default("");

/** The confirmation step: states when the plan ends, and asks (without requiring) why. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const overview = await billingPage(user.id);
  if (overview.kind !== "web" || overview.billingStatus !== "active") throw redirect("/my-account/billing");
  return { planName: overview.planName, ends: formatPublished(overview.accessEnd) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requireUser({ request, context });
  const reason = reasonSchema.safeParse(form.get("reason") ?? undefined);
  if (!reason.success) throw new Response("Choose one of the listed reasons, or none.", { status: 400 });
  const outcome = await cancelPlan(user.id, reason.data || null);
  return redirect(`/my-account/billing?updated=${outcome === "provider-unavailable" ? outcome : "cancelled"}`, 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Cancel your subscription",
    description: "Cancel your subscription at the end of the period you have paid for.",
    path: "/my-account/billing/cancel",
  });

export default function CancelSubscription() {
  const { planName, ends } = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <h1>Cancel your subscription</h1>
      <p>
        Your {planName} subscription will end on <strong>{ends}</strong>, the end of the period you have paid for. It will not renew and you
        will not be charged again. You keep full access until then, and you can resume your subscription at any time before that date.
      </p>
      <Form method="post" className={forms.form}>
        <div className={forms.field}>
          <label htmlFor="reason" className={forms.label}>
            Why are you cancelling? (optional)
          </label>
          <select id="reason" name="reason" className={forms.input} defaultValue="">
            <option value="">Prefer not to say</option>
            {CANCEL_REASONS.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div className={forms.actions}>
          <button type="submit" className={primaryButton}>
            Confirm cancellation
          </button>
          <Link to="/my-account/billing">Keep my subscription</Link>
        </div>
      </Form>
    </div>
  );
}
