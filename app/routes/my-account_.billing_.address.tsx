import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { BillingAddressFields } from "~/app/components/account/BillingAddressFields";
import { primaryButton } from "~/app/components/controls.css";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import * as forms from "~/app/components/forms/forms.css";
import { useSpecForm } from "~/app/components/forms/useSpecForm";
import * as prose from "~/app/components/prose.css";
import { requireUser } from "~/app/lib/context/request-context.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { redirect } from "~/app/lib/http/responses.server";
import { billingPage, changeAddress } from "~/app/lib/subscriptions/billing.server";
import { billingAddressSchema } from "~/app/lib/subscriptions/billing-forms";
import { readBillingAddress } from "~/shared/billing-address";

/** The plans whose billing address can change: those still to be charged (ADR 070). */
const CHANGEABLE = new Set(["active", "past_due", "cancel_at_period_end"]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const overview = await billingPage(user.id);
  if (overview.kind !== "web" || !CHANGEABLE.has(overview.billingStatus ?? "")) throw redirect("/my-account/billing");
  return {
    planName: overview.planName,
    defaults: { countryCode: overview.billingAddress?.countryCode ?? "", region: overview.billingAddress?.region ?? "" },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const user = await requireUser({ request, context });
  const submission = parseWithZod(form, { schema: billingAddressSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const outcome = await changeAddress(user.id, readBillingAddress(submission.value));
  if (outcome === "provider-unavailable") return redirect("/my-account/billing?updated=provider-unavailable", 303);
  if (outcome === "no-renewing-plan") return redirect("/my-account/billing", 303);
  if (outcome !== "changed")
    return rejectForm(submission, { fieldErrors: Object.fromEntries(Object.entries(outcome.fields).map(([f, m]) => [f, [m]])) });
  return redirect("/my-account/billing?updated=address", 303);
}

export const meta: MetaFunction = (args) =>
  formPageMeta(args, {
    title: "Billing address",
    description: "Where you are billed, which the sales tax on your subscription follows.",
    path: "/my-account/billing/address",
  });

const loadSchema = () => import("~/app/lib/subscriptions/billing-forms").then((m) => m.billingAddressSchema);

export default function BillingAddress() {
  const { planName, defaults } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const { form, fields, summary, submitDisabled } = useSpecForm("billing-address", loadSchema, failed?.result, defaults);
  return (
    <div className={prose.narrow}>
      <h1>Billing address</h1>
      <p>
        Sales tax on your {planName} subscription follows where you are billed: we collect it in the US states where we have to, and
        Canada&apos;s GST. A new address applies from your next payment; the invoices you already have do not change.
      </p>
      <ErrorSummary items={summary} />
      <Form method="post" {...getFormProps(form)} noValidate className={forms.form}>
        <BillingAddressFields fields={fields} />
        <div className={forms.actions}>
          <button type="submit" className={primaryButton} disabled={submitDisabled}>
            Save billing address
          </button>
          <Link to="/my-account/billing">Back to Subscription and billing</Link>
        </div>
      </Form>
    </div>
  );
}
