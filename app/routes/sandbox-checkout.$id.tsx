import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { primaryButton } from "~/app/components/controls.css";
import * as forms from "~/app/components/forms/forms.css";
import * as css from "~/app/components/subscriptions.css";
import { readForm } from "~/app/lib/forms/guard.server";
import { formatUsd } from "~/app/lib/content/format";
import { receivePaymentCallback, sandbox } from "~/app/lib/store/payments.server";
import { CHECKOUT_EXPIRED } from "~/server/payments/sandbox";
import { log } from "~/server/log";

/**
 * The sandbox payment provider's hosted checkout page. It stands where a real provider's page
 * would: the reader enters a test card, the sandbox sends its signed completion callback, and
 * the reader goes back to the site's success address.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const payment = await (await sandbox()).payment(params.id ?? "");
  if (!payment) throw new Response("No such checkout session", { status: 404 });
  return {
    description: payment.description,
    amount: formatUsd(payment.amountCents),
    email: payment.customerEmail,
    paid: payment.status === "paid",
    setup: payment.mode === "setup",
    expired: payment.status === "expired" ? CHECKOUT_EXPIRED : null,
    cancelUrl: payment.cancelUrl,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const provider = await sandbox();
  if (!(await provider.payment(params.id ?? ""))) throw new Response("No such checkout session", { status: 404 });
  const card = String(form.get("cardNumber") ?? "").slice(0, 40);
  const outcome = await provider.pay(params.id ?? "", card);
  if (!outcome.ok) return data({ error: outcome.error }, { status: 402 });
  // The provider's completion callback, signed as it would arrive at /api/payments/webhook.
  try {
    await receivePaymentCallback(outcome.callback.body, outcome.callback.signature);
  } catch (error) {
    // The reader's return still completes the subscription (the site asks the provider then).
    log.error("sandbox completion callback failed", { error });
  }
  return redirect(outcome.redirectUrl, 303);
}

export const meta: MetaFunction = () => [{ title: "Sandbox checkout" }, { name: "robots", content: "noindex" }];

export default function SandboxCheckout() {
  const page = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <div>
      <h1>Sandbox checkout</h1>
      <p className={css.sandboxNote}>
        This is the built-in sandbox payment provider: no money moves. Card 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined;
        4000 0000 0000 0341 is accepted now and declined at renewal.
      </p>
      <div className={css.summary}>
        <p>
          <strong>{page.description}</strong>
        </p>
        {page.setup ? (
          <p>Nothing is charged now: the card is saved for the subscription&apos;s payments.</p>
        ) : (
          <>
            <p>Total due today: {page.amount}</p>
            <p>Receipt to {page.email}</p>
          </>
        )}
      </div>
      {page.paid ? (
        <p role="status">{page.setup ? "This card has already been saved." : "This checkout has already been paid."}</p>
      ) : page.expired ? (
        <p role="status">{page.expired}</p>
      ) : (
        <Form method="post" className={css.cardForm} noValidate>
          {failed?.error ? (
            <p className={forms.formMessage} role="alert" id="card-error">
              {failed.error}
            </p>
          ) : null}
          <div className={forms.field}>
            <label htmlFor="cardNumber" className={forms.label}>
              Card number
            </label>
            <input
              id="cardNumber"
              name="cardNumber"
              className={forms.input}
              inputMode="numeric"
              autoComplete="cc-number"
              required
              aria-invalid={failed?.error ? true : undefined}
              aria-describedby={failed?.error ? "card-error" : undefined}
            />
          </div>
          <button type="submit" className={primaryButton} disabled={busy}>
            {page.setup ? "Save card" : `Pay ${page.amount}`}
          </button>
        </Form>
      )}
      <p>
        <a href={page.cancelUrl}>Cancel and go back</a>
      </p>
    </div>
  );
}
