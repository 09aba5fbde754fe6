import type { Destination } from "~/server/store/pricing";
import { signedCookie } from "~/app/lib/http/cookies.server";
import { estimateSchema } from "./cart-forms";

/**
 * The cart's estimate destination lives in a small signed cookie rather than the URL: it stays
 * while the shopper goes back to the store and returns through the header's cart link, and the
 * stepper and remove forms need not carry it along. It is not worth a database column: it is a
 * guess at checkout's address, which checkout asks for properly.
 */
const estimateCookie = signedCookie("mr_cart_estimate", 90 * 86_400);

/** The destination last estimated for, checked again against the form's rules. */
export async function readEstimateDestination(request: Request): Promise<Destination | null> {
  const value = await estimateCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const parsed = estimateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function rememberEstimateDestination(destination: Destination): Promise<string> {
  return estimateCookie().serialize({
    country: destination.country,
    region: destination.region ?? undefined,
    postalCode: destination.postalCode,
  });
}
