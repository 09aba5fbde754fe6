import type { LoaderFunctionArgs } from "@remix-run/node";
import type { LastSave } from "~/server/desk/catalogue/common";
import { notFound } from "./access.server";
import { changedSinceOpened } from "./conflict";
import { deskTime } from "./format";

// What the desk's store pages share (ADR 091): the ids their addresses carry, the notices after a
// save, and the lost-update message.

/** A whole number from an address (a product's or a format's id); anything else is no row (404). */
export function idParam(value: string | undefined): number {
  return value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : notFound();
}

/** A promo code or voucher code from an address, as it is kept (capitals); anything else is none (404). */
export function codeParam(value: string | undefined): string {
  return value && /^[A-Za-z0-9-]{1,40}$/.test(value) ? value.toUpperCase() : notFound();
}

/** The notice the page shows after the post that led to it (?saved=…), if it is one of the page's. */
export function savedNotice(args: Pick<LoaderFunctionArgs, "request">, notices: Record<string, string>): string | null {
  const saved = new URL(args.request.url).searchParams.get("saved");
  return saved && Object.hasOwn(notices, saved) ? notices[saved]! : null;
}

/** Why a save was refused: someone saved since the form was opened; the editor's own version is kept in the form. */
export function staleSave(thing: string, current: LastSave): string {
  return `${changedSinceOpened(thing, current.updatedBy, current.updatedAt)} Nothing of yours was saved: your changes are still in the form, and the saved version is shown beside it. Save again to replace it with yours.`;
}

const ORDER_STATES = { pending_payment: "awaiting payment", paid: "paid", cancelled: "cancelled" } as const;

/** An offer's use as its page lists it: held by the order (and the order's state), or given back when. */
export function shownUse(use: {
  orderNumber: string;
  orderStatus: keyof typeof ORDER_STATES;
  email: string;
  usedAt: string;
  releasedAt: string | null;
}) {
  return {
    orderNumber: use.orderNumber,
    email: use.email,
    usedAt: deskTime(use.usedAt),
    state: use.releasedAt ? `Given back at ${deskTime(use.releasedAt)}` : `Held by the order (${ORDER_STATES[use.orderStatus]})`,
  };
}
