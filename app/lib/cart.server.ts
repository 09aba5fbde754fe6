import { createCart, guestCartExists, mergeGuestCart, userCartId } from "../../server/store/cart";
import { signedCookie } from "./cookies.server";
import { db } from "./db.server";

/** A guest's cart id, signed, so an edited id is simply not recognised. */
const guestCartCookie = signedCookie("mr_cart", 90 * 86_400);

async function guestCartId(request: Request): Promise<string | null> {
  const value = await guestCartCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && (await guestCartExists(await db(), value)) ? value : null;
}

/** The cart this request shops with (the reader's own, else the guest cookie's), or null if none yet. */
export async function currentCartId(request: Request, userId: string | undefined): Promise<string | null> {
  return userId ? userCartId(await db(), userId) : guestCartId(request);
}

/**
 * The cart to put something in, made on first use. A new guest cart comes with the Set-Cookie
 * that keeps it.
 */
export async function cartForWriting(request: Request, userId: string | undefined): Promise<{ cartId: string; setCookie?: string }> {
  const database = await db();
  if (userId) return { cartId: await userCartId(database, userId, true) };
  const existing = await guestCartId(request);
  if (existing) return { cartId: existing };
  const cartId = await createCart(database, null);
  return { cartId, setCookie: await guestCartCookie().serialize(cartId) };
}

/** At sign-in or registration: the guest cart this browser holds moves into the reader's cart. */
export async function mergeCartAtSignIn(request: Request, userId: string): Promise<void> {
  const guest = await guestCartId(request);
  if (guest) await mergeGuestCart(await db(), guest, userId);
}
