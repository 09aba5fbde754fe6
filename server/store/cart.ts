import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";
import type { CartLineKind, LineType, PreorderCharge } from "~/server/db/schema";
import { productPath } from "~/shared/urls";
import { linePrice } from "~/shared/pricing";
import { cartLineType, isDigitalCode, type CartLineType } from "~/shared/product-types";
import { MAX_PERM_QUANTITY, MAX_SHIP_QUANTITY } from "~/shared/quantity-limits";
import type { ImageSources } from "~/shared/uploaded-images";
import { coverOf } from "./catalogue";
import { priceInForce } from "./prices";

export { MAX_PERM_QUANTITY, MAX_SHIP_QUANTITY };

export interface CartLine {
  id: string;
  availabilityId: number;
  productId: number;
  productSlug: string;
  /** The product's uploaded cover, if it has one (else its drawn cover is shown). */
  coverPicture: ImageSources | null;
  title: string;
  productType: string;
  format: string;
  code: string;
  language: string;
  lineType: LineType;
  kind: CartLineKind;
  /** "Perm" (copyright permissions), "Ship" or "Digital". */
  type: CartLineType;
  digital: boolean;
  quantity: number;
  maxQuantity: number;
  listPriceCents: number;
  unitPriceCents: number;
  /** Volume discount applied to the unit price, in percent. */
  percentOff: number;
  lineTotalCents: number;
  /** Status F: not on sale yet; such a line is a pre-order, sent or opened on its date (ADR 092). */
  comingSoon: boolean;
  /** When a pre-order of it is charged: with the order, or on its date. */
  preorderCharge: PreorderCharge;
  /** Status R: no longer sold (ADR 091); such a line cannot be ordered, only removed. */
  retired: boolean;
  availableDate: string | null;
  referral: string | null;
  url: string;
}

export interface Cart {
  /** null: nobody has put anything in a cart yet. */
  id: string | null;
  lines: CartLine[];
  physical: CartLine[];
  digital: CartLine[];
  /** What the header's mini cart counts: each copy of an item, and a permission line once, whatever copies it licenses. */
  itemCount: number;
  subtotalCents: number;
}

export const EMPTY_CART: Cart = { id: null, lines: [], physical: [], digital: [], itemCount: 0, subtotalCents: 0 };

export function maxQuantity(kind: CartLineKind, code: string): number {
  if (kind === "perm") return MAX_PERM_QUANTITY;
  return isDigitalCode(code) ? 1 : MAX_SHIP_QUANTITY;
}

/**
 * The cart with every line priced from the catalogue at `now`: the price in force then (ADR 091).
 * A cart keeps no prices of its own; the order placed from it keeps the prices it was placed at.
 */
export async function readCart(db: Database, cartId: string | null, now = new Date()): Promise<Cart> {
  if (!cartId) return EMPTY_CART;
  const rows = await db
    .selectFrom("cart_line as l")
    .innerJoin("product_availability as a", "a.id", "l.availability_id")
    .innerJoin("product as p", "p.id", "a.product_id")
    .leftJoin("image as cover", "cover.id", "p.cover_image_id")
    .select(["cover.id as cover_id", "cover.width as cover_width", "cover.height as cover_height", "cover.alt as cover_alt"])
    .select(priceInForce("a", now).as("price_cents"))
    .select([
      "l.id",
      "l.kind",
      "l.quantity",
      "l.referral",
      "l.added_at",
      "a.id as availability_id",
      "a.format",
      "a.code",
      "a.language",
      "a.line_type",
      "a.status",
      "a.available_date",
      "a.preorder_charge",
      "a.volume_pricing",
      "p.id as product_id",
      "p.slug",
      "p.title",
      "p.product_type",
    ])
    .where("l.cart_id", "=", cartId)
    // Lines added in the same instant (a merge) list in catalogue order.
    .orderBy("l.added_at")
    .orderBy("l.availability_id")
    .orderBy("l.kind")
    .execute();
  const lines: CartLine[] = rows.map((r) => {
    const listPriceCents = Number(r.price_cents);
    const price = linePrice({
      kind: r.kind,
      listPriceCents,
      quantity: r.quantity,
      volumePricing: r.volume_pricing === 1,
    });
    const type = cartLineType(r.kind, r.code);
    return {
      id: r.id,
      availabilityId: r.availability_id,
      productId: r.product_id,
      productSlug: r.slug,
      coverPicture: coverOf(r),
      title: r.kind === "perm" ? `Copyright permissions: ${r.title}` : r.title,
      productType: r.product_type,
      format: r.format,
      code: r.code,
      language: r.language,
      lineType: r.line_type,
      kind: r.kind,
      type,
      digital: type === "Digital",
      quantity: r.quantity,
      maxQuantity: maxQuantity(r.kind, r.code),
      listPriceCents,
      unitPriceCents: price.unitPriceCents,
      percentOff: price.percentOff,
      lineTotalCents: price.lineTotalCents,
      comingSoon: r.status === "F",
      preorderCharge: r.preorder_charge,
      retired: r.status === "R",
      availableDate: r.available_date,
      referral: r.referral,
      url: productPath({ slug: r.slug, availabilityId: r.availability_id }),
    };
  });
  return {
    id: cartId,
    lines,
    // Permissions are delivered as a licence document, so they list with the digital items.
    physical: lines.filter((l) => l.type === "Ship"),
    digital: lines.filter((l) => l.type !== "Ship"),
    itemCount: lines.reduce((n, l) => n + (l.kind === "perm" ? 1 : l.quantity), 0),
    subtotalCents: lines.reduce((n, l) => n + l.lineTotalCents, 0),
  };
}

export async function createCart(db: Database, userId: string | null, now = new Date()): Promise<string> {
  const id = crypto.randomUUID();
  await db.insertInto("cart").values({ id, user_id: userId, created_at: now.toISOString(), updated_at: now.toISOString() }).execute();
  return id;
}

/** A reader's cart id, made on first use when `create` is set. */
export async function userCartId(db: Database, userId: string, create: true): Promise<string>;
export async function userCartId(db: Database, userId: string, create?: false): Promise<string | null>;
export async function userCartId(db: Database, userId: string, create = false): Promise<string | null> {
  const found = await db.selectFrom("cart").select("id").where("user_id", "=", userId).executeTakeFirst();
  if (found || !create) return found?.id ?? null;
  try {
    return await createCart(db, userId);
  } catch (error) {
    // Two first adds at once: the other request made the cart.
    const raced = await db.selectFrom("cart").select("id").where("user_id", "=", userId).executeTakeFirst();
    if (raced) return raced.id;
    throw error;
  }
}

/** A guest cart id from a cookie, if that cart still exists and belongs to no reader. */
export async function guestCartExists(db: Database, cartId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/.test(cartId)) return false;
  return Boolean(await db.selectFrom("cart").select("id").where("id", "=", cartId).where("user_id", "is", null).executeTakeFirst());
}

export type AddProblem = "unknown-product" | "wrong-type" | "retired" | "no-permissions" | "quantity" | "too-many" | "digital-limit";

export type AddOutcome =
  { ok: true; lineId: string; quantity: number } | { ok: false; problem: AddProblem; max?: number; type?: CartLineType };

/** The cart's line for this item sold this way, if it has one (a cart holds at most one). */
function findLine(db: Database, cartId: string, availabilityId: number, kind: CartLineKind) {
  return db
    .selectFrom("cart_line")
    .select(["id", "quantity"])
    .where("cart_id", "=", cartId)
    .where("availability_id", "=", availabilityId)
    .where("kind", "=", kind)
    .executeTakeFirst();
}

export interface AddInput {
  availabilityId: number;
  /** How the shopper says it is sold; when given, it must be how its format is delivered. Left out, the item is added as the catalogue sells it. */
  type?: CartLineType;
  quantity: number;
  referral: string | null;
}

interface Checked {
  ok: true;
  kind: CartLineKind;
  max: number;
}

/**
 * What can be refused before the cart is touched: the quantity, the type (a bundle or a
 * hardcover ships, an ebook is digital: "wrong-type" names the type it has), and the item's being
 * sold that way (a retired item never is; a coming-soon one is pre-ordered, ADR 092). Answers the line's kind and limit.
 */
async function checkAdd(db: Database, input: AddInput): Promise<Checked | Extract<AddOutcome, { ok: false }>> {
  const kind: CartLineKind = input.type === "Perm" ? "perm" : "item";
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) return { ok: false, problem: "quantity" };
  const availability = Number.isSafeInteger(input.availabilityId)
    ? await db
        .selectFrom("product_availability")
        .select(["code", "status", "permissions_available"])
        .where("id", "=", input.availabilityId)
        .executeTakeFirst()
    : undefined;
  if (!availability) return { ok: false, problem: "unknown-product" };
  const type = cartLineType(kind, availability.code);
  if (input.type !== undefined && input.type !== type) return { ok: false, problem: "wrong-type", type };
  if (availability.status === "R") return { ok: false, problem: "retired" };
  if (kind === "perm" && availability.permissions_available !== 1) return { ok: false, problem: "no-permissions" };
  return { ok: true, kind, max: maxQuantity(kind, availability.code) };
}

/**
 * Touching the cart first takes its row's lock on PostgreSQL: two adds to one cart go one after
 * the other, and the second finds the lines the first made.
 */
async function lockCart(tx: Database, cartId: string, now: Date): Promise<void> {
  await tx.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", cartId).execute();
}

/** One line's add, inside the transaction that locked the cart. */
async function addLine(tx: Database, cartId: string, input: AddInput, { kind, max }: Checked, now: Date): Promise<AddOutcome> {
  const existing = await findLine(tx, cartId, input.availabilityId, kind);
  if (existing && max === 1) return { ok: false, problem: "digital-limit" };
  const quantity = (existing?.quantity ?? 0) + input.quantity;
  if (quantity > max) return { ok: false, problem: max === 1 ? "digital-limit" : "too-many", max };
  if (existing) {
    await tx.updateTable("cart_line").set({ quantity }).where("id", "=", existing.id).execute();
    return { ok: true, lineId: existing.id, quantity };
  }
  const lineId = crypto.randomUUID();
  await tx
    .insertInto("cart_line")
    .values({
      id: lineId,
      cart_id: cartId,
      availability_id: input.availabilityId,
      kind,
      quantity,
      referral: input.referral,
      added_at: now.toISOString(),
    })
    .execute();
  return { ok: true, lineId, quantity };
}

/**
 * Adds to a cart. The price is never taken from the shopper: it comes from the catalogue
 * whenever the cart is read. A digital item is sold one to an order.
 */
export async function addToCart(db: Database, cartId: string, input: AddInput, now = new Date()): Promise<AddOutcome> {
  const checked = await checkAdd(db, input);
  if (!checked.ok) return checked;
  return db.transaction().execute(async (tx): Promise<AddOutcome> => {
    await lockCart(tx, cartId, now);
    return addLine(tx, cartId, input, checked, now);
  });
}

export type AddAllOutcome =
  { ok: true; lines: { lineId: string; quantity: number }[] } | (Extract<AddOutcome, { ok: false }> & { availabilityId: number });

/** Refuses a whole add from inside its transaction, so that nothing of it is kept. */
class AddRefused extends Error {
  constructor(readonly outcome: Extract<AddAllOutcome, { ok: false }>) {
    super(outcome.problem);
  }
}

/**
 * Adds several items at once ("Better together"), each as addToCart would: all of them, or
 * none when any one is refused (the answer names it).
 */
export async function addAllToCart(db: Database, cartId: string, inputs: AddInput[], now = new Date()): Promise<AddAllOutcome> {
  const checks: Checked[] = [];
  for (const input of inputs) {
    const checked = await checkAdd(db, input);
    if (!checked.ok) return { ...checked, availabilityId: input.availabilityId };
    checks.push(checked);
  }
  try {
    return await db.transaction().execute(async (tx): Promise<AddAllOutcome> => {
      await lockCart(tx, cartId, now);
      const lines: { lineId: string; quantity: number }[] = [];
      for (const [i, input] of inputs.entries()) {
        const outcome = await addLine(tx, cartId, input, checks[i]!, now);
        if (!outcome.ok) throw new AddRefused({ ...outcome, availabilityId: input.availabilityId });
        lines.push({ lineId: outcome.lineId, quantity: outcome.quantity });
      }
      return { ok: true, lines };
    });
  } catch (error) {
    if (error instanceof AddRefused) return error.outcome;
    throw error;
  }
}

export type QuantityOutcome = "updated" | "removed" | "not-found" | "invalid" | "too-many" | "digital-limit";

/** The stepper: 0 removes the line; a digital line cannot go above 1. */
export async function setLineQuantity(
  db: Database,
  cartId: string,
  lineId: string,
  quantity: number,
  now = new Date(),
): Promise<QuantityOutcome> {
  if (!Number.isSafeInteger(quantity) || quantity < 0) return "invalid";
  const line = await db
    .selectFrom("cart_line as l")
    .innerJoin("product_availability as a", "a.id", "l.availability_id")
    .select(["l.id", "l.kind", "a.code"])
    .where("l.cart_id", "=", cartId)
    .where("l.id", "=", lineId)
    .executeTakeFirst();
  if (!line) return "not-found";
  if (quantity === 0) {
    await removeLine(db, cartId, lineId, now);
    return "removed";
  }
  const max = maxQuantity(line.kind, line.code);
  if (quantity > max) return max === 1 ? "digital-limit" : "too-many";
  await db.updateTable("cart_line").set({ quantity }).where("id", "=", lineId).where("cart_id", "=", cartId).execute();
  await db.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", cartId).execute();
  return "updated";
}

export async function removeLine(db: Database, cartId: string, lineId: string, now = new Date()): Promise<boolean> {
  const removed = await db.deleteFrom("cart_line").where("cart_id", "=", cartId).where("id", "=", lineId).executeTakeFirst();
  await db.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", cartId).execute();
  return Number(removed.numDeletedRows) === 1;
}

export async function emptyCart(db: Database, cartId: string): Promise<void> {
  await db.deleteFrom("cart_line").where("cart_id", "=", cartId).execute();
}

/**
 * A guest signs in: what their guest cart holds moves into their own cart (quantities add up,
 * within each line's limit) and the guest cart is deleted. Returns the reader's cart id and how
 * many of the guest's lines moved (none when another request merged that cart first).
 */
export async function mergeGuestCart(
  db: Database,
  guestCartId: string,
  userId: string,
  now = new Date(),
): Promise<{ cartId: string; linesMoved: number }> {
  const target = await userCartId(db, userId, true);
  if (guestCartId === target) return { cartId: target, linesMoved: 0 };
  const linesMoved = await db.transaction().execute(async (tx) => {
    // Claims the guest cart first: the update takes its row's write lock, so a second merge of
    // the same cart at the same moment waits, then finds it gone and moves nothing.
    const claimed = await tx
      .updateTable("cart")
      .set({ updated_at: now.toISOString() })
      .where("id", "=", guestCartId)
      .where("user_id", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return 0;
    const incoming = await tx
      .selectFrom("cart_line as l")
      .innerJoin("product_availability as a", "a.id", "l.availability_id")
      .select(["l.availability_id", "l.kind", "l.quantity", "l.referral", "l.added_at", "a.code"])
      .where("l.cart_id", "=", guestCartId)
      .execute();
    for (const line of incoming) {
      const existing = await findLine(tx, target, line.availability_id, line.kind);
      const max = maxQuantity(line.kind, line.code);
      if (existing) {
        await tx
          .updateTable("cart_line")
          .set({ quantity: Math.min(max, existing.quantity + line.quantity) })
          .where("id", "=", existing.id)
          .execute();
      } else {
        await tx
          .insertInto("cart_line")
          .values({
            id: crypto.randomUUID(),
            cart_id: target,
            availability_id: line.availability_id,
            kind: line.kind,
            quantity: Math.min(max, line.quantity),
            referral: line.referral,
            added_at: line.added_at,
          })
          .execute();
      }
    }
    await tx.deleteFrom("cart").where("id", "=", guestCartId).execute();
    await tx.updateTable("cart").set({ updated_at: now.toISOString() }).where("id", "=", target).execute();
    return incoming.length;
  });
  return { cartId: target, linesMoved };
}
