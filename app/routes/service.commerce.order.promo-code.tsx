import { applyPromoCode } from "~/server/store/checkout";
import { money, reviewView } from "~/app/lib/api/cart.server";
import { promoCode } from "~/app/lib/api/groups/cart";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { checkoutShopper } from "~/app/lib/store/checkout.server";
import { db } from "~/app/lib/context/db.server";

/** POST /service/commerce/order/promo-code (spec 7): a promo code checked and kept as the shipping page's Apply does. */
const route = apiRoute(
  serve(promoCode, async ({ request, context, body }) => {
    const { cartId, cart } = await checkoutShopper({ request, context });
    const outcome = await applyPromoCode(await db(), { cartId, cart, code: body.promoCode });
    switch (outcome.kind) {
      case "empty-cart":
        return apiError(409, "empty_cart", "Your Shopping Cart is empty.");
      case "refused":
        return apiError(400, `promo_${outcome.promo.status}`, outcome.promo.message, { fields: { promoCode: [outcome.promo.message] } });
      case "removed":
        return apiJson({ promo: null, review: await reviewView({ request, context }) });
      case "applied":
        return apiJson({
          promo: { code: outcome.promo.promo.code, message: outcome.promo.message, discount: money(outcome.promo.discountCents) },
          review: await reviewView({ request, context }),
        });
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
