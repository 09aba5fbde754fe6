import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useLoaderData } from "@remix-run/react";
import { claimGuestOrders, orderForViewer } from "~/server/store/order-records";
import { orderPath } from "~/server/store/order-mail";
import * as prose from "~/app/components/prose.css";
import { db } from "~/app/lib/context/db.server";
import { visitorRegion } from "~/app/lib/accounts/geo.server";
import { guestOrderIds, settleOnReturn } from "~/app/lib/store/orders.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { RegistrationForm } from "~/app/components/account/RegistrationForm";
import { requestContext } from "~/app/lib/context/request-context.server";
import { CheckoutHeading } from "~/app/components/steps/StepHeading";

/**
 * Where a guest lands after paying: the order is confirmed, and they are offered an account
 * prefilled with the order's e-mail. The form posts to /register, which comes back here signed
 * in; then the guest orders this browser placed with that same address move into the account
 * (claimGuestOrders says why the browser's own list is required).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await requestContext({ request, context }).user();
  const database = await db();
  const orderId = url.searchParams.get("order") ?? "";
  const viewer = { userId: user?.id ?? null, key: url.searchParams.get("key") };
  const placed = await orderForViewer(database, orderId, viewer);
  if (!placed) throw new Response("No such order", { status: 404 });
  // Paid after the buyer cancelled it (ADR 018): no thanks, the order's page says it is cancelled.
  if (placed.status === "cancelled") throw redirect(orderPath(placed), 303);
  await settleOnReturn(placed);
  const order = (await orderForViewer(database, orderId, viewer))!;
  const claimed = user ? await claimGuestOrders(database, user.id, user.email, await guestOrderIds(request)) : 0;
  const owned = user !== undefined && (claimed > 0 || order.userId === user.id);
  return {
    number: order.number,
    paid: order.status === "paid",
    email: order.email,
    orderPath: owned ? `/order/${order.id}` : orderPath(order),
    here: `${url.pathname}?order=${order.id}&key=${encodeURIComponent(order.accessToken)}`,
    signedIn: Boolean(user),
    owned,
    region: user ? "other" : await visitorRegion(request, context),
  };
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...seo({
    title: "Thank you for your order",
    description: "Your order is placed.",
    path: "/registration-complete",
    siteUrl: siteUrlFrom(matches),
  }),
  { name: "robots", content: "noindex" },
];

export default function RegistrationComplete() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className={prose.narrow}>
      <CheckoutHeading step={4} title="Thank you for your order" />
      <p role="status">
        {page.paid
          ? `Order ${page.number} is confirmed. We have sent a confirmation to ${page.email}.`
          : `We are waiting for the payment provider to confirm order ${page.number}.`}
      </p>
      <p>
        <Link to={page.orderPath}>View your order and receipt</Link>
      </p>
      {page.owned ? (
        <p>This order is saved in your account, with your purchase history.</p>
      ) : page.signedIn ? (
        <p>This order was placed with {page.email}, which is not your account's address: keep its link to come back to it.</p>
      ) : (
        <>
          <h2>Create an account</h2>
          <p>Register to keep this order, and any others you placed here as a guest with {page.email}, in your purchase history.</p>
          <p>
            Already have an account with that address? <Link to={`/sign-in?redirectTo=${encodeURIComponent(page.here)}`}>Sign in</Link>{" "}
            instead.
          </p>
          <RegistrationForm redirectTo={page.here} region={page.region} result={undefined} defaultEmail={page.email} />
        </>
      )}
    </div>
  );
}
