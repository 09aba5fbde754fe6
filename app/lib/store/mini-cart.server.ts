import { readCart } from "~/server/store/cart";
import type { RequestContext } from "~/app/lib/context/request-context.server";

/** Lines the header's mini cart lists; the rest are counted. */
const MINI_CART_LINES = 5;

/**
 * The header's cart summary. Without a signed-in reader or a guest-cart cookie it costs no
 * query at all; otherwise one to find the cart and one to read it.
 */
export async function miniCart(asker: RequestContext) {
  const cart = await readCart(await asker.db(), await asker.cartId());
  return {
    itemCount: cart.itemCount,
    totalCents: cart.subtotalCents,
    lines: cart.lines
      .slice(0, MINI_CART_LINES)
      .map((l) => ({ id: l.id, title: l.title, format: l.format, url: l.url, quantity: l.quantity, lineTotalCents: l.lineTotalCents })),
    moreLines: Math.max(0, cart.lines.length - MINI_CART_LINES),
  };
}

export type MiniCart = Awaited<ReturnType<typeof miniCart>>;
