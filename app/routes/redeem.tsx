import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { storeMaintenance } from "~/server/store/maintenance";
import { redeemVoucher, VOUCHER_MESSAGES, voucherState } from "~/server/store/vouchers";
import { primaryButton } from "~/app/components/controls.css";
import * as prose from "~/app/components/prose.css";
import { StoreMaintenanceNotice } from "~/app/components/store/StoreMaintenanceNotice";
import { config, db } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { confirmOrder } from "~/app/lib/store/payments.server";
import { seo, siteUrlFrom } from "~/app/lib/content/seo";
import { requestContext } from "~/app/lib/context/request-context.server";

/** Reached from any page carrying ?voucher_code= (the root loader sends it here). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const code = url.searchParams.get("voucher_code") ?? "";
  const user = await requestContext({ request, context }).user();
  const state = await voucherState(await db(), code, new Date(), user?.id);
  const here = `/redeem?voucher_code=${encodeURIComponent(state.code)}`;
  return {
    maintenance: storeMaintenance(config()),
    signedIn: Boolean(user),
    here,
    voucher:
      state.status === "available"
        ? { status: state.status, code: state.code, title: state.title, format: state.format, url: state.url, message: null }
        : {
            status: state.status,
            code: state.code,
            message: VOUCHER_MESSAGES[state.status](state.code || code.trim().slice(0, 40)),
          },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const code = String(form.get("voucher_code") ?? "").slice(0, 100);
  const user = await requestContext({ request, context }).user();
  if (!user) return redirect(`/sign-in?redirectTo=${encodeURIComponent(`/redeem?voucher_code=${encodeURIComponent(code)}`)}`, 303);
  if (storeMaintenance(config()).closed)
    return data({ message: "Ordering is closed for maintenance. Please come back to redeem your voucher later." }, { status: 503 });
  const outcome = await redeemVoucher(await db(), code, user);
  if (!outcome.ok)
    return data(
      { message: VOUCHER_MESSAGES[outcome.problem](outcome.problem === "unknown" ? code.trim() : code.trim().toUpperCase()) },
      { status: 409 },
    );
  await confirmOrder(outcome.orderId);
  return redirect(`/order/${outcome.orderId}`, 303);
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...seo({ title: "Redeem a voucher", description: "Redeem your voucher at no charge.", path: "/redeem", siteUrl: siteUrlFrom(matches) }),
  { name: "robots", content: "noindex" },
];

export default function Redeem() {
  const { maintenance, signedIn, here, voucher } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className={prose.narrow}>
      <h1>Redeem a voucher</h1>
      {refused?.message ? <p role="alert">{refused.message}</p> : null}
      {voucher.status !== "available" ? (
        <>
          <p role="status">{voucher.message}</p>
          <p>
            <Link to="/store">Visit Our Store</Link>
          </p>
        </>
      ) : maintenance.closed ? (
        <StoreMaintenanceNotice window={maintenance.window} />
      ) : (
        <>
          <p>
            Voucher {voucher.code} gives you <Link to={voucher.url}>{voucher.title}</Link> ({voucher.format}) at no charge.
          </p>
          {signedIn ? (
            <Form method="post">
              <input type="hidden" name="voucher_code" value={voucher.code} />
              <button type="submit" className={primaryButton} disabled={busy}>
                Redeem voucher
              </button>
            </Form>
          ) : (
            <p>
              To redeem it, please <Link to={`/sign-in?redirectTo=${encodeURIComponent(here)}`}>sign in</Link> or{" "}
              <Link to={`/register?redirectTo=${encodeURIComponent(here)}`}>register</Link>: the item is added to your account.
            </p>
          )}
        </>
      )}
    </div>
  );
}
