import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/app/lib/http/responses.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { addAllToCart, addToCart, readCart, removeLine, setLineQuantity } from "~/server/store/cart";
import { estimateCharges } from "~/server/store/pricing";
import { storeMaintenance } from "~/server/store/maintenance";
import { COUNTRIES, regionsOf } from "~/shared/regions";
import { AddFailure, type AddFailureDetails } from "~/app/components/store/AddFailure";
import * as css from "~/app/components/store/cart.css";
import { primaryButton } from "~/app/components/controls.css";
import { CartEstimate } from "~/app/components/store/CartEstimate";
import { CartLines } from "~/app/components/store/CartLines";
import { CartTotals } from "~/app/components/store/CartTotals";
import { StoreMaintenanceNotice } from "~/app/components/store/StoreMaintenanceNotice";
import { ErrorSummary } from "~/app/components/forms/ErrorSummary";
import { ADD_STATUS, addProblemReason, ownCartLine } from "~/app/lib/store/cart.server";
import { addedConfirmation } from "~/app/lib/store/cart-confirmation.server";
import { readEstimateDestination, rememberEstimateDestination } from "~/app/lib/store/cart-estimate.server";
import { config } from "~/app/lib/context/db.server";
import { readForm } from "~/app/lib/forms/guard.server";
import { formPageMeta } from "~/app/lib/forms/meta";
import {
  addSelectedSchema,
  addToCartSchema,
  DIGITAL_LIMIT,
  estimateSchema,
  MAX_ADD_ITEMS,
  NOTHING_CHECKED,
  overMax,
  updateQuantitySchema,
  VALID_NUMBER,
} from "~/app/lib/store/cart-forms";
import { rejectForm } from "~/app/lib/forms/reply.server";
import { safeRedirectPath } from "~/app/lib/http/redirects";
import { sentByFetcher } from "~/app/lib/forms/via-fetcher";
import { log } from "~/server/log";
import { requestContext, type RequestContext } from "~/app/lib/context/request-context.server";
import { CheckoutHeading } from "~/app/components/steps/StepHeading";

export const meta: MetaFunction<typeof loader> = (args) =>
  formPageMeta(args, { title: "Shopping Cart", description: "The items in your shopping cart.", path: "/shopping-cart" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const asker = requestContext({ request, context });
  const cart = await readCart(await asker.db(), await asker.cartId());
  const destination = await readEstimateDestination(request);
  return {
    cart,
    destination,
    estimate: destination && cart.lines.length > 0 ? estimateCharges(cart, destination) : null,
    countries: COUNTRIES,
    regions: { US: regionsOf("US"), CA: regionsOf("CA") },
    maintenance: storeMaintenance(config()),
  };
}

const notFound = () => new Response("No such line in your cart", { status: 404 });

/** The line an update or remove names, in the cart of whoever asks; anything else is a 404. */
async function ownLine(asker: RequestContext, lineId: FormDataEntryValue | null) {
  const own = await ownCartLine(asker, lineId);
  if (!own) throw notFound();
  return own;
}

function addFailed(failure: AddFailureDetails, status: number, result?: SubmissionResult<string[]>) {
  return data({ intent: "add" as const, failed: true as const, failure, result }, { status });
}

/** The apology for an add: why, the product ids the form posted (or the one refused), and the product page it came from. */
function addFailure(form: FormData, reason: string, productIds = postedProductIds(form)): AddFailureDetails {
  const productUrl = safeRedirectPath(form.get("productUrl"), "");
  return { reason, productIds, productUrl: productUrl.startsWith("/product/") ? productUrl : null };
}

function postedProductIds(form: FormData): string[] {
  return form
    .getAll("productId")
    .filter((v): v is string => typeof v === "string")
    .slice(0, MAX_ADD_ITEMS)
    .map((v) => v.slice(0, 20));
}

async function add(asker: RequestContext, form: FormData, viaFetcher: boolean) {
  const failure = (reason: string) => addFailure(form, reason);

  const submission = parseWithZod(form, { schema: addToCartSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? VALID_NUMBER;
    return addFailed(failure(first), 400, submission.reply());
  }
  const input = submission.value;
  try {
    const { cartId, setCookie } = await asker.cartForWriting();
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    const outcome = await addToCart(await asker.db(), cartId, {
      availabilityId: input.availabilityId,
      type: input.type,
      quantity: input.quantity,
      referral: input.referral,
    });
    if (!outcome.ok) return addFailed(failure(addProblemReason(outcome)), ADD_STATUS[outcome.problem]);
    const confirmation = viaFetcher ? await addedConfirmation(cartId, [outcome.lineId]) : null;
    if (confirmation) return data({ intent: "add" as const, added: confirmation }, { headers });
    return redirect(`/shopping-cart/added?line=${outcome.lineId}`, { status: 303, headers });
  } catch (error) {
    log.error("add to cart failed", { error });
    return addFailed(failure("We could not reach our store just now. Please try again in a few minutes."), 500);
  }
}

/**
 * "Better together": every checked item in one post, each once and as the catalogue sells it;
 * all of them or, if any one is refused, none. Then the confirmation of them all.
 */
async function addSelected(asker: RequestContext, form: FormData) {
  const parsed = addSelectedSchema.safeParse({ productIds: form.getAll("productId"), referral: form.get("referral") ?? undefined });
  if (!parsed.success) return addFailed(addFailure(form, parsed.error.issues[0]?.message ?? NOTHING_CHECKED), 400);
  const { availabilityIds, referral } = parsed.data;
  try {
    const { cartId, setCookie } = await asker.cartForWriting();
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    const outcome = await addAllToCart(
      await asker.db(),
      cartId,
      availabilityIds.map((availabilityId) => ({ availabilityId, quantity: 1, referral })),
    );
    if (!outcome.ok) {
      return addFailed(addFailure(form, addProblemReason(outcome), [String(outcome.availabilityId)]), ADD_STATUS[outcome.problem]);
    }
    const lines = new URLSearchParams(outcome.lines.map((l) => ["line", l.lineId]));
    return redirect(`/shopping-cart/added?${lines}`, { status: 303, headers });
  } catch (error) {
    log.error("add to cart failed", { error });
    return addFailed(addFailure(form, "We could not reach our store just now. Please try again in a few minutes."), 500);
  }
}

async function update(asker: RequestContext, form: FormData, viaFetcher: boolean) {
  const { cartId, line } = await ownLine(asker, form.get("lineId"));
  // The stepper's buttons post the new quantity as "set"; the box and its Update button as "quantity".
  const values = new FormData();
  values.set("lineId", line.id);
  const quantity = form.get("set") ?? form.get("quantity");
  if (typeof quantity === "string") values.set("quantity", quantity);
  const submission = parseWithZod(values, { schema: updateQuantitySchema });
  const outcome =
    submission.status === "success" ? await setLineQuantity(await asker.db(), cartId, line.id, submission.value.quantity) : "invalid";
  if (outcome === "not-found") throw notFound();
  if (outcome === "updated" || outcome === "removed") {
    return viaFetcher ? data({ intent: "update" as const, ok: true as const }) : redirect("/shopping-cart", 303);
  }
  const message = outcome === "digital-limit" ? DIGITAL_LIMIT : outcome === "too-many" ? overMax(line.maxQuantity) : VALID_NUMBER;
  return data({ intent: "update" as const, failed: true as const, lineId: line.id, message }, { status: 400 });
}

async function remove(asker: RequestContext, form: FormData, viaFetcher: boolean) {
  const { cartId, line } = await ownLine(asker, form.get("lineId"));
  if (!(await removeLine(await asker.db(), cartId, line.id))) throw notFound();
  return viaFetcher ? data({ intent: "remove" as const, ok: true as const }) : redirect("/shopping-cart", 303);
}

async function estimate(form: FormData, viaFetcher: boolean) {
  const submission = parseWithZod(form, { schema: estimateSchema });
  if (submission.status !== "success") return rejectForm(submission, {}, 400, { intent: "estimate" as const });
  const headers = { "Set-Cookie": await rememberEstimateDestination(submission.value) };
  return viaFetcher
    ? data({ intent: "estimate" as const, ok: true as const }, { headers })
    : redirect("/shopping-cart", { status: 303, headers });
}

/** The cart's one action: `intent` is add or add-selected (from product pages), update (the stepper), remove or estimate. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const asker = requestContext({ request, context });
  const viaFetcher = sentByFetcher(form);
  switch (form.get("intent")) {
    case "add":
      return add(asker, form, viaFetcher);
    case "add-selected":
      return addSelected(asker, form);
    case "update":
      return update(asker, form, viaFetcher);
    case "remove":
      return remove(asker, form, viaFetcher);
    case "estimate":
      return estimate(form, viaFetcher);
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}

export type CartAction = typeof action;

export default function ShoppingCart() {
  const { cart, maintenance, estimate, destination, countries, regions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const addFailure = result && "failure" in result ? result.failure : null;
  const lineError = result && result.intent === "update" && "message" in result ? { lineId: result.lineId, message: result.message } : null;
  return (
    <div>
      {cart.lines.length > 0 ? <CheckoutHeading step={1} title="Shopping Cart" /> : <h1>Shopping Cart</h1>}
      {addFailure ? <AddFailure failure={addFailure} headingLevel={2} /> : null}
      {maintenance.closed ? <StoreMaintenanceNotice window={maintenance.window} /> : null}
      {lineError ? <ErrorSummary items={[{ fieldId: `quantity-${lineError.lineId}`, message: lineError.message }]} /> : null}
      {cart.lines.length === 0 ? (
        <>
          <p>Your Shopping Cart is empty.</p>
          <p>
            <Link to="/store" className={primaryButton}>
              Visit Our Store
            </Link>
          </p>
        </>
      ) : (
        <div className={css.layout}>
          <div>
            {cart.physical.length > 0 ? (
              <CartLines heading="Items to ship" headingId="physical-items" lines={cart.physical} error={lineError} />
            ) : null}
            {cart.digital.length > 0 ? (
              <CartLines heading="Digital items" headingId="digital-items" lines={cart.digital} error={lineError} />
            ) : null}
          </div>
          <div>
            <CartTotals subtotalCents={cart.subtotalCents} estimate={estimate} />
            <div className={css.actions}>
              <Link to="/shipping-payment" className={primaryButton}>
                Checkout
              </Link>
              <Link to="/store">Continue shopping</Link>
            </div>
            <CartEstimate
              destination={destination}
              countries={countries}
              regions={regions}
              lastResult={result && result.intent === "estimate" && "result" in result ? result.result : undefined}
            />
          </div>
        </div>
      )}
    </div>
  );
}
