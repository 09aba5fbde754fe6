import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, withSecurityHeaders } from "~/app/lib/http/responses.server";
import { findCheckout } from "~/server/subscriptions/checkout";
import { db } from "~/app/lib/context/db.server";
import { checkoutCompleteCookie } from "~/app/lib/store/payments.server";
import { requireUser } from "~/app/lib/context/request-context.server";

/**
 * Where the payment provider sends the reader back. It writes the completion cookie (the next
 * page load activates the subscription, spec "Subscription checkout") and goes on to the receipt.
 */
export const loader = withSecurityHeaders(async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser({ request, context });
  const id = new URL(request.url).searchParams.get("checkout") ?? "";
  const checkout = await findCheckout(await db(), id, user.id);
  if (!checkout) throw new Response("No such checkout", { status: 404 });
  return redirect(`/subscriptions/receipt?checkout=${checkout.id}`, {
    headers: { "Set-Cookie": await checkoutCompleteCookie().serialize(checkout.id) },
  });
});
