import * as cheerio from "cheerio";
import type { Database } from "~/server/db/connection";
import { SHIPPING_ADDRESS } from "./store-orders";

/** The values a form posts as it stands: hidden and pre-filled inputs, checked boxes, selected options. */
export function formValues($: cheerio.CheerioAPI, form: ReturnType<cheerio.CheerioAPI>): Record<string, string> {
  const values: Record<string, string> = {};
  form.find("input[name]").each((_, el) => {
    const input = $(el);
    const type = (input.attr("type") ?? "text").toLowerCase();
    if (["submit", "button", "image"].includes(type)) return;
    if ((type === "checkbox" || type === "radio") && input.attr("checked") === undefined) return;
    values[input.attr("name")!] = input.attr("value") ?? "";
  });
  form.find("select[name]").each((_, el) => {
    const select = $(el);
    values[select.attr("name")!] = (select.find("option[selected]").attr("value") ?? select.find("option").first().attr("value")) || "";
  });
  return values;
}

/** What the checkout steps need of a browser (tests/helpers/reader.ts's Reader, or a benchmark's). */
export interface FormClient {
  request(path: string, init?: { form?: Record<string, string> }): Promise<Response>;
}

/** Checks an answer's status, and returns the answer (a caller may throw its own kind of error). */
export type AnswerCheck = (res: Response, status: number, step: string) => Promise<Response>;

/**
 * A shopper's way from a full cart to the "place order" form, as a browser goes: the shipping
 * page with a new address and its first method, then the review page. Returns that form's
 * values, or null when the cart is empty (the shipping page then has no address form).
 */
export async function placeOrderForm(reader: FormClient, check: AnswerCheck): Promise<Record<string, string> | null> {
  const shipping = await reader.request("/shipping-payment");
  if (shipping.status === 302 || shipping.status === 303) return null;
  await check(shipping, 200, "GET /shipping-payment");
  const $ = cheerio.load(await shipping.text());
  const form = $('form[method="post" i]')
    .filter((_, el) => $(el).find('[name="address1"], [name="addressChoice"]').length > 0)
    .first();
  if (form.length === 0) return null;
  const method = form.find('input[name="shippingMethod"]').first().attr("value") ?? "standard";
  const posted = await reader.request("/shipping-payment", {
    form: { ...formValues($, form), addressChoice: "new", ...SHIPPING_ADDRESS, shippingMethod: method, promoCode: "", intent: "continue" },
  });
  await check(posted, 303, "POST /shipping-payment");
  const review = await check(await reader.request("/review-order"), 200, "GET /review-order");
  const $r = cheerio.load(await review.text());
  const place = $r('form[method="post" i]')
    .filter((_, el) => $r(el).find('[name="idempotencyKey"]').length > 0)
    .first();
  return formValues($r, place);
}

/** Shipped items on sale now, which any shopper may put in a cart. */
export const shippedItems = (db: Database) =>
  db
    .selectFrom("product_availability as a")
    .innerJoin("product as p", "p.id", "a.product_id")
    .select(["a.id", "a.format", "a.list_price_cents", "p.slug", "p.title"])
    .where("a.line_type", "=", "SHIP")
    .where("a.status", "=", "A")
    .orderBy("a.id")
    .execute();

/** The fields the product page's add-to-cart form posts for an item. */
export function addToCartForm(item: { id: number; format: string; list_price_cents: number; slug: string }): Record<string, string> {
  return {
    intent: "add",
    productId: String(item.id),
    productUrl: `/product/${item.slug}/${item.id}`,
    type: "Ship",
    quantity: "1",
    referral: "",
    format: item.format,
    productPrice: (item.list_price_cents / 100).toFixed(2),
  };
}
