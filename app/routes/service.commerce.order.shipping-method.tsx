import { chooseShippingMethod } from "~/server/store/shipping-method";
import { EMPTY_CART_MESSAGE, fieldError, reviewView, shippingMethodView } from "~/app/lib/api/cart.server";
import { shippingMethodEndpoint } from "~/app/lib/api/groups/cart";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { checkoutShopper, UNKNOWN_ADDRESS } from "~/app/lib/store/checkout.server";
import { db } from "~/app/lib/context/db.server";
import { CHOOSE_SHIPPING } from "~/app/lib/store/checkout-forms";

/** POST /service/commerce/order/shipping-method (spec 7): the shipping page's method choice, on its own. */
const route = apiRoute(
  serve(shippingMethodEndpoint, async ({ request, context, body }) => {
    const { user, cartId, cart } = await checkoutShopper({ request, context });
    const outcome = await chooseShippingMethod(await db(), { cartId, cart, userId: user?.id ?? null, methodId: body.shippingMethod });
    switch (outcome.kind) {
      case "empty-cart":
        return apiError(409, "empty_cart", EMPTY_CART_MESSAGE);
      case "nothing-to-ship":
        return apiError(409, "nothing_to_ship", "Nothing in your cart ships, so there is no shipping method to choose.");
      case "no-destination":
        return apiError(409, "unknown_address", UNKNOWN_ADDRESS);
      case "not-offered":
        return fieldError("shippingMethod", CHOOSE_SHIPPING);
      case "chosen":
        return apiJson({
          shippingMethod: shippingMethodView(outcome.method, outcome.priceCents),
          review: await reviewView({ request, context }),
        });
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
