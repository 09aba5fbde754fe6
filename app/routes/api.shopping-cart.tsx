import { addToCart, emptyCart, readCart, removeLine } from "~/server/store/cart";
import { cartView } from "~/app/lib/api/cart.server";
import { addToCartEndpoint, getCart, removeFromCart } from "~/app/lib/api/groups/cart";
import { apiError, apiJson, apiRoute, serve } from "~/app/lib/api/handler.server";
import { ADD_STATUS, addProblemReason, ownCartLine, type AddFailureOutcome } from "~/app/lib/store/cart.server";
import { requestContext } from "~/app/lib/context/request-context.server";

type ItemResult =
  { productId: string; added: true; lineId: string; quantity: number } | { productId: string; added: false; code: string; message: string };

/**
 * GET /api/shopping-cart: the caller's cart, as the spec's Cart entity. POST: adds a list of
 * cart add items, each as the product page's add does (the same schema and addToCart). DELETE:
 * removes one of the caller's lines, or empties the cart.
 */
const route = apiRoute(
  serve(getCart, async ({ request, context }) => {
    const asker = requestContext({ request, context });
    return apiJson(await cartView(request, await readCart(await asker.db(), await asker.cartId())));
  }),

  serve(addToCartEndpoint, async ({ request, context, body }) => {
    const asker = requestContext({ request, context });
    const database = await asker.db();
    const { cartId, setCookie } = await asker.cartForWriting();
    const items: ItemResult[] = [];
    const wrongTypes: Record<string, string[]> = {};
    let firstFailure: AddFailureOutcome | null = null;
    for (const [index, item] of body.entries()) {
      const productId = String(item.availabilityId);
      const outcome = await addToCart(database, cartId, {
        availabilityId: item.availabilityId,
        type: item.type,
        quantity: item.quantity,
        referral: item.referral,
      });
      if (outcome.ok) items.push({ productId, added: true, lineId: outcome.lineId, quantity: outcome.quantity });
      else {
        firstFailure ??= outcome;
        items.push({ productId, added: false, code: outcome.problem, message: addProblemReason(outcome) });
        if (outcome.problem === "wrong-type") wrongTypes[`${index}.type`] = [addProblemReason(outcome)];
      }
    }
    if (firstFailure && items.every((i) => !i.added))
      return apiError(ADD_STATUS[firstFailure.problem], firstFailure.problem, addProblemReason(firstFailure), {
        items,
        ...(firstFailure.problem === "wrong-type" ? { fields: wrongTypes } : {}),
      });
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    return apiJson({ items, cart: await cartView(request, await readCart(database, cartId)) }, { headers });
  }),

  serve(removeFromCart, async ({ request, context, body }) => {
    const asker = requestContext({ request, context });
    const database = await asker.db();
    if (body.lineId !== undefined) {
      const own = await ownCartLine(asker, body.lineId);
      if (!own || !(await removeLine(database, own.cartId, own.line.id))) return apiError(404, "not_found", "No such line in your cart");
      return apiJson(await cartView(request, await readCart(database, own.cartId)));
    }
    const cartId = await asker.cartId();
    if (cartId) await emptyCart(database, cartId);
    return apiJson(await cartView(request, await readCart(database, cartId)));
  }),
);

export const loader = route.loader;
export const action = route.action;
