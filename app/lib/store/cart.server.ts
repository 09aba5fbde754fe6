import type { Database } from "~/server/db/connection";
import { guestCartExists, mergeGuestCart, readCart, type AddOutcome, type CartLine } from "~/server/store/cart";
import type { RequestContext } from "~/app/lib/context/request-context.server";
import { signedCookie } from "~/app/lib/http/cookies.server";
import { VALID_NUMBER, wrongType } from "./cart-forms";

/** A guest's cart id, signed, so an edited id is simply not recognised. */
export const guestCartCookie = signedCookie("mr_cart", 90 * 86_400);

/** The guest cart the request's cookie names, if it still exists. */
export async function guestCartId(request: Request, database: Database): Promise<string | null> {
  const value = await guestCartCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && (await guestCartExists(database, value)) ? value : null;
}

/**
 * At sign-in or registration: the guest cart this browser holds moves into the reader's cart.
 * Answers how many lines moved (0 when the browser holds no guest cart).
 */
export async function mergeCartAtSignIn(asker: RequestContext, userId: string): Promise<number> {
  const guest = await asker.guestCartId();
  return guest ? (await mergeGuestCart(await asker.db(), guest, userId)).linesMoved : 0;
}

/** Cart line ids are UUIDs; anything else cannot be one of this cart's lines. */
const LINE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The line an update or remove names, in the cart of whoever asks (the page and the service
 * API alike); null for anything else, someone else's line included.
 */
export async function ownCartLine(asker: RequestContext, lineId: unknown): Promise<{ cartId: string; line: CartLine } | null> {
  const cartId = await asker.cartId();
  if (!cartId || typeof lineId !== "string" || !LINE_ID.test(lineId)) return null;
  const line = (await readCart(await asker.db(), cartId)).lines.find((l) => l.id === lineId);
  return line ? { cartId, line } : null;
}

/** What the shopper is told of an item no longer sold (ADR 091), wherever they meet it. */
export const RETIRED_ITEM = "This item is no longer sold and cannot be added to your cart.";

export type AddFailureOutcome = Extract<AddOutcome, { ok: false }>;

/** Why an add was refused, as the page and the service API say it. */
export function addProblemReason(outcome: AddFailureOutcome): string {
  switch (outcome.problem) {
    case "unknown-product":
      return "This item is not in our catalogue.";
    case "wrong-type":
      return wrongType(outcome.type!);
    case "retired":
      return RETIRED_ITEM;
    case "no-permissions":
      return "Copyright permissions are not offered for this item.";
    case "quantity":
      return VALID_NUMBER;
    case "too-many":
      return `Your cart can hold at most ${outcome.max ?? 0} of this item, counting those already in it.`;
    case "digital-limit":
      return "A digital item is sold one to an order, and this one is already in your cart.";
  }
}

/** The HTTP status of each refused add. */
export const ADD_STATUS: Record<AddFailureOutcome["problem"], number> = {
  "unknown-product": 404,
  "wrong-type": 400,
  retired: 409,
  "no-permissions": 409,
  quantity: 400,
  "too-many": 409,
  "digital-limit": 409,
};
