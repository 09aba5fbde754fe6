import type { ActionFunctionArgs } from "@remix-run/node";
import { WebhookSignatureError } from "~/server/payments/provider";
import { SANDBOX_SIGNATURE_HEADER } from "~/server/payments/sandbox";
import { payments, receivePaymentCallback } from "~/app/lib/store/payments.server";
import { readBodyBytes } from "~/app/lib/forms/read-body.server";
import { withSecurityHeaders } from "~/app/lib/http/responses.server";

const MAX_BODY_BYTES = 256 * 1024;

const json = (body: object, status: number) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * The payment provider's signed callbacks (Stripe's webhooks, or the sandbox's). The signature
 * is checked over the raw body; a replayed callback activates nothing twice.
 */
export const action = withSecurityHeaders(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Method not allowed" }, 405);
  const body = await readBodyBytes(request, MAX_BODY_BYTES);
  if (body === "too-large") return json({ error: "Payload too large" }, 413);
  if (body === "unreadable") return json({ error: "Body could not be read" }, 400);
  const raw = new TextDecoder().decode(body);
  const header = (await payments()).name === "stripe" ? "Stripe-Signature" : SANDBOX_SIGNATURE_HEADER;
  try {
    const outcome = await receivePaymentCallback(raw, request.headers.get(header));
    return json({ received: true, outcome }, 200);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return json({ error: error.message }, 400);
    if (error instanceof SyntaxError) return json({ error: "Body is not JSON" }, 400);
    throw error;
  }
});

export const loader = withSecurityHeaders(function loader() {
  return json({ error: "Method not allowed" }, 405);
});
