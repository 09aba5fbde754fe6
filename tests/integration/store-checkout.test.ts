import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { selectFromServer } from "~/tests/helpers/server-db";
import { plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";

// Store checkout against the production build: shipping and payment, the review, placing the
// order through the sandbox payment provider (a declined card, then one that pays), the order
// page for its buyer only, and the confirmation e-mail on a loopback SMTP server. Cart lines go
// in through the cart's own form (POST /shopping-cart, intent add).

let server: RunningServer;
let smtp: LoopbackSmtp;
let database: IsolatedConnection;

/** Seed catalogue: the first book's hardcover (ships) and its ebook (digital). */
const HARDCOVER = "1001";
const EBOOK = "1002";
/** The cart-add form's other fields, as the product page posts them (the price is display only). */
const ITEM_FIELDS: Record<string, Record<string, string>> = {
  [HARDCOVER]: { productUrl: "/product/the-patient-ledger/1001", format: "Hardcover", productPrice: "32.00" },
  [EBOOK]: { productUrl: "/product/the-patient-ledger/1002", format: "Ebook", productPrice: "24.99" },
};
/** A digital item's form has no quantity field (one to an order). */
const cartAddForm = (productId: string, type: "Ship" | "Digital") => ({
  intent: "add",
  productId,
  type,
  ...(type === "Ship" ? { quantity: "1" } : {}),
  referral: "",
  ...ITEM_FIELDS[productId],
});

beforeAll(async () => {
  database = await isolatedConnection("chk");
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer(
    {
      RATE_LIMIT_PER_IP: "100000",
      RATE_LIMIT_PER_ACCOUNT: "1000",
      SMTP_URL: smtp.url,
    },
    "production",
    database,
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await database.drop();
});

async function addToCart(r: Reader, productId: string, type: "Ship" | "Digital") {
  const res = await r.request("/shopping-cart", { form: cartAddForm(productId, type) });
  expect(res.status, "add to cart").toBeLessThan(400);
}

async function continueToReview(r: Reader, fields: Record<string, string>) {
  const res = await r.request("/shipping-payment", {
    form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, shippingMethod: "standard", ...fields },
  });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/review-order");
}

/** Where a checkout page says the shopper is: its heading, the step bar's current step and the steps that link back. */
function checkoutStep($: cheerio.CheerioAPI) {
  const bar = $("ol[aria-label='Checkout steps']");
  return {
    heading: $("h1").text(),
    // As a screen reader reads it: the step's number is drawn for the eye alone.
    current: bar.find("[aria-current=step]").clone().find("[aria-hidden=true]").remove().end().text(),
    back: bar
      .find("a")
      .map((_, a) => $(a).attr("href"))
      .get(),
  };
}

async function reviewForm(r: Reader) {
  const $ = await r.page("/review-order");
  return { $, idempotencyKey: $("input[name=idempotencyKey]").val() as string, shownTotal: $("input[name=shownTotal]").val() as string };
}

const pathOf = (location: string | null) => {
  const url = new URL(location!, server.url);
  return url.pathname + url.search;
};

async function pay(r: Reader, checkoutLocation: string, card: string) {
  return r.request(pathOf(checkoutLocation), { form: { cardNumber: card } });
}

async function waitForMail(to: string) {
  for (let i = 0; i < 50; i++) {
    const found = smtp.received.filter((m) => m.rcptTo.includes(to));
    if (found.length > 0) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
}

describe("guest checkout", () => {
  it("validates the address with clear messages and keeps what was typed when the country changes", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, HARDCOVER, "Ship");
    const bad = await guest.request("/shipping-payment", {
      form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, email: "not-an-address", postalCode: "1234", state: "" },
    });
    expect(bad.status).toBe(400);
    const $ = cheerio.load(await bad.text());
    const errors = $("[role=alert] li")
      .map((_, li) => $(li).text())
      .get();
    expect(errors).toEqual(
      expect.arrayContaining([
        "Please enter a valid email address.",
        "Please choose a state.",
        "Please enter a valid ZIP code: 5 digits, or 9 digits as 12345-6789.",
      ]),
    );

    const update = await guest.request("/shipping-payment", {
      form: { intent: "country", addressChoice: "new", ...SHIPPING_ADDRESS, countryCode: "CA", state: "", email: "typed@example.org" },
    });
    expect(update.status).toBe(303);
    const $ca = await guest.page("/shipping-payment");
    expect(
      $ca("select[name=state] option")
        .map((_, o) => $ca(o).text())
        .get(),
    ).toContain("Ontario");
    expect($ca("input[name=firstName]").val()).toBe("Ada");
    expect($ca("input[name=email]").val()).toBe("typed@example.org");
    expect($ca("select[name=countryCode] option[selected]").val()).toBe("CA");
    expect($ca("label").text()).toContain("Province or territory");

    await guest.request("/shipping-payment", {
      form: { intent: "country", addressChoice: "new", ...SHIPPING_ADDRESS, countryCode: "GB", state: "" },
    });
    const $gb = await guest.page("/shipping-payment");
    expect($gb("input[name=state]")).toHaveLength(1);
    expect($gb("label").text()).toContain("International (7 to 14 business days)");
    expect($gb("label").text()).not.toContain("Standard");
  });

  it("answers the state/province resource for a country", async () => {
    const res = await fetch(`${server.url}/service/commerce/state-province/ca`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { regions: { code: string }[] }).regions.map((r) => r.code)).toContain("ON");
    expect((await fetch(`${server.url}/service/commerce/state-province/zz`)).status).toBe(404);
  });

  it("shows promo code outcomes", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, EBOOK, "Digital");
    const apply = async (promoCode: string) => {
      expect(
        (await guest.request("/shipping-payment", { form: { intent: "promo", addressChoice: "new", ...SHIPPING_ADDRESS, promoCode } }))
          .status,
      ).toBe(303);
      const $ = await guest.page("/shipping-payment");
      return $("#promoCode ~ [role=status], [role=status]")
        .filter((_, e) => $(e).text().includes("promo code") || $(e).text().includes("Promo code"))
        .text();
    };
    expect(await apply("welcome10")).toBe("Promo code WELCOME10 applied: 10% off your order.");
    expect(await apply("SUMMER24")).toBe("The promo code SUMMER24 has expired.");
    expect(await apply("CASES25")).toContain("The promo code CASES25 does not apply to the items in your cart.");
    expect(await apply("NOSUCHCODE")).toBe("We don't recognise the promo code NOSUCHCODE. Please check it and try again.");
    const blocked = await guest.request("/shipping-payment", {
      form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, email: "promo@example.org", promoCode: "SUMMER24" },
    });
    expect(blocked.status).toBe(400);
  });

  it("buys a print item and an ebook: declined card, then paid; one order for replays; receipt, e-mail, empty cart", async () => {
    const guest = new Reader(server.url);
    const email = `guest.${Date.now()}@example.org`;
    await addToCart(guest, HARDCOVER, "Ship");
    await addToCart(guest, EBOOK, "Digital");
    expect(checkoutStep(await guest.page("/shopping-cart"))).toEqual({ heading: "Step 1 of 4: Shopping Cart", current: "Cart", back: [] });
    expect(checkoutStep(await guest.page("/shipping-payment"))).toEqual({
      heading: "Step 2 of 4: Shipping and payment",
      current: "Shipping and payment",
      back: ["/shopping-cart"],
    });
    await continueToReview(guest, { email });
    const { $, idempotencyKey, shownTotal } = await reviewForm(guest);
    expect(checkoutStep($)).toEqual({
      heading: "Step 3 of 4: Review your order",
      current: "Review",
      back: ["/shopping-cart", "/shipping-payment"],
    });
    expect($("main").text()).toContain("12 Harbour Road");
    expect($("main").text()).toContain("Standard");
    expect(idempotencyKey).toMatch(/^[A-Za-z0-9_-]{22,}$/);

    // A double click, a reload and a replayed POST: all the same order and the same hosted checkout.
    const submissions = await Promise.all(
      Array.from({ length: 4 }, () => guest.request("/review-order", { form: { idempotencyKey, shownTotal } })),
    );
    expect(submissions.map((s) => s.status)).toEqual([303, 303, 303, 303]);
    const locations = new Set(submissions.map((s) => s.headers.get("location")));
    expect(locations.size).toBe(1);
    const checkout = [...locations][0]!;
    expect(pathOf(checkout)).toMatch(/^\/sandbox-checkout\/sbx_/);
    const orders = await selectFromServer<{ id: string; status: string }>(
      database,
      "SELECT id, status FROM store_order WHERE idempotency_key = ?",
      [idempotencyKey],
    );
    expect(orders).toHaveLength(1);
    const orderId = orders[0]!.id;
    const sessions = await selectFromServer<{ id: string }>(database, "SELECT id FROM sandbox_payment WHERE reference = ?", [orderId]);
    expect(sessions).toHaveLength(1);

    const declined = await pay(guest, checkout, "4000 0000 0000 0002");
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined. No payment was taken.");
    expect(
      (await selectFromServer<{ status: string }>(database, "SELECT status FROM store_order WHERE id = ?", [orderId]))[0]!.status,
    ).toBe("pending_payment");

    const paid = await pay(guest, checkout, "4242 4242 4242 4242");
    expect(paid.status).toBe(303);
    const back = pathOf(paid.headers.get("location"));
    expect(back).toMatch(new RegExp(`^/registration-complete\\?order=${orderId}&key=`));
    const $done = await guest.page(back);
    // The order is placed: nothing to go back to.
    expect(checkoutStep($done)).toEqual({ heading: "Step 4 of 4: Thank you for your order", current: "Confirmation", back: [] });
    expect($done("input[name=emailAddress]").val()).toBe(email);

    const orderLink = $done("a")
      .filter((_, a) => $done(a).text() === "View your order and receipt")
      .attr("href")!;
    const $order = await guest.page(orderLink);
    expect($order("dd").text()).toContain("Purchased");
    expect($order("main").text()).toContain("Ada Byron");
    expect($order("main").text()).toContain("Hardcover");
    expect($order("main").text()).toContain("Ebook");
    // The replayed POST after payment goes to the paid order, not to a new charge.
    const replay = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    expect(replay.status).toBe(303);
    expect(pathOf(replay.headers.get("location"))).not.toMatch(/sandbox-checkout/);
    expect(await selectFromServer(database, "SELECT id FROM store_order WHERE idempotency_key = ?", [idempotencyKey])).toHaveLength(1);

    const stranger = new Reader(server.url);
    expect((await stranger.request(`/order/${orderId}`)).status).toBe(404);
    expect((await stranger.request(`/order/${orderId}?key=not-the-key`)).status).toBe(404);

    const $cart = await guest.page("/shipping-payment");
    expect($cart("main").text()).toContain("Your Shopping Cart is empty.");

    const mails = await waitForMail(email);
    expect(mails).toHaveLength(1);
    const text = plainText(mails[0]!.raw);
    const number = $order("h1").text().replace("Order ", "");
    expect(text).toContain(`Order number: ${number}`);
    expect(text).toContain("12 Harbour Road");
    expect(text).toContain(`${server.url}/order/${orderId}?key=`);
    // Settling again (reloading the receipt) sends nothing more.
    await guest.page(orderLink);
    expect(await waitForMail(email)).toHaveLength(1);
  });

  it("makes one order from two review tabs submitted at once, and sends the second tab to that order", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email: `tabs.${Date.now()}@example.org` });
    const tabs = [await reviewForm(guest), await reviewForm(guest)];
    expect(tabs[0]!.idempotencyKey).not.toBe(tabs[1]!.idempotencyKey);

    const answers = await Promise.all(
      tabs.map(({ idempotencyKey, shownTotal }) => guest.request("/review-order", { form: { idempotencyKey, shownTotal } })),
    );
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const keys = tabs.map((t) => t.idempotencyKey);
    const orders = await selectFromServer<{ id: string; access_token: string }>(
      database,
      "SELECT id, access_token FROM store_order WHERE idempotency_key IN (?, ?)",
      keys,
    );
    expect(orders).toHaveLength(1);
    const [order] = orders;
    const locations = answers.map((a) => pathOf(a.headers.get("location"))).sort();
    expect(locations).toEqual(
      [`/order/${order!.id}?key=${order!.access_token}`, expect.stringMatching(/^\/sandbox-checkout\/sbx_/)].sort(),
    );

    // The second tab's page offers the payment the first tab opened.
    const checkout = locations.find((l) => l.startsWith("/sandbox-checkout/"))!;
    const $order = await guest.page(locations.find((l) => l.startsWith("/order/"))!);
    expect($order("dd").text()).toContain("Awaiting payment");
    const pay = $order("a").filter((_, a) => $order(a).text() === "Pay for this order");
    expect(pathOf(pay.attr("href")!)).toBe(checkout);
  });

  it("keeps the cart and the order pending when the shopper cancels on the provider's page", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email: "cancel@example.org" });
    const { idempotencyKey, shownTotal } = await reviewForm(guest);
    const placed = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    const $sandbox = await guest.page(pathOf(placed.headers.get("location")));
    const cancel = $sandbox("a")
      .filter((_, a) => $sandbox(a).text() === "Cancel and go back")
      .attr("href")!;
    // Back on the order's page, where the shopper may cancel it or return to the review.
    expect(pathOf(cancel)).toMatch(/^\/order\/ord_[A-Za-z0-9_-]{22}\?key=/);
    const $order = await guest.page(pathOf(cancel));
    expect($order("dd").text()).toContain("Awaiting payment");
    expect($order("a[href='/review-order']")).toHaveLength(1);
    const $review = await guest.page("/review-order");
    expect($review("main").text()).toContain("Ebook");
  });
});

describe("cancelling an order", () => {
  async function placeOrder(guest: Reader, email: string) {
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email });
    const { idempotencyKey, shownTotal } = await reviewForm(guest);
    const placed = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    expect(placed.status).toBe(303);
    const [row] = await selectFromServer<{ id: string; access_token: string }>(
      database,
      "SELECT id, access_token FROM store_order WHERE idempotency_key = ?",
      [idempotencyKey],
    );
    return {
      checkout: placed.headers.get("location")!,
      orderPath: `/order/${row!.id}?key=${encodeURIComponent(row!.access_token)}`,
      orderId: row!.id,
    };
  }
  const CANCEL = { intent: "cancel" };

  it("lets the buyer cancel an order awaiting payment, once; nobody else; a replay is harmless", async () => {
    const guest = new Reader(server.url);
    const { orderPath, orderId } = await placeOrder(guest, `cancel.${Date.now()}@example.org`);
    const $pending = await guest.page(orderPath);
    expect($pending("dd").text()).toContain("Awaiting payment");
    expect($pending("form[method=post] button").text()).toBe("Cancel this order");

    const stranger = new Reader(server.url);
    expect((await stranger.request(`/order/${orderId}`, { form: CANCEL })).status).toBe(404);
    expect((await stranger.request(`/order/${orderId}?key=not-the-key`, { form: CANCEL })).status).toBe(404);
    expect((await (await registeredReader(server.url)).request(`/order/${orderId}`, { form: CANCEL })).status).toBe(404);
    expect(
      (await selectFromServer<{ status: string }>(database, "SELECT status FROM store_order WHERE id = ?", [orderId]))[0]!.status,
    ).toBe("pending_payment");

    for (let i = 0; i < 2; i++) {
      const cancelled = await guest.request(orderPath, { form: CANCEL });
      expect(cancelled.status).toBe(303);
      expect(pathOf(cancelled.headers.get("location"))).toBe(orderPath);
    }
    const $cancelled = await guest.page(orderPath);
    expect($cancelled("dd").text()).toContain("Cancelled");
    expect($cancelled("[role=status]").text()).toContain("This order has been cancelled.");
    expect($cancelled("button").filter((_, b) => $cancelled(b).text() === "Cancel this order")).toHaveLength(0);
    const rows = await selectFromServer<{ status: string; cancelled_at: string | null; paid_at: string | null }>(
      database,
      "SELECT status, cancelled_at, paid_at FROM store_order WHERE id = ?",
      [orderId],
    );
    expect(rows).toEqual([{ status: "cancelled", cancelled_at: expect.any(String), paid_at: null }]);
    // The cart keeps the items, to order again.
    expect((await guest.page("/review-order"))("main").text()).toContain("Ebook");
  });

  it("closes the provider's page when an order is cancelled: going back to pay takes no money", async () => {
    const guest = new Reader(server.url);
    const { checkout, orderPath, orderId } = await placeOrder(guest, `late.${Date.now()}@example.org`);
    expect((await guest.request(orderPath, { form: CANCEL })).status).toBe(303);
    const refused = await pay(guest, checkout, "4242 4242 4242 4242");
    expect(refused.status).toBe(402);
    const $refused = cheerio.load(await refused.text());
    expect($refused("[role=status]").text()).toBe("This checkout has expired: the order was cancelled. No payment was taken.");
    expect($refused("input[name=cardNumber]")).toHaveLength(0);
    expect((await guest.page(orderPath))("dd").text()).toContain("Cancelled");
    expect(
      (await selectFromServer<{ status: string }>(database, "SELECT status FROM store_order WHERE id = ?", [orderId]))[0]!.status,
    ).toBe("cancelled");
  });

  it("refuses to cancel a paid order with a clear message", async () => {
    const reader = await registeredReader(server.url);
    await addToCart(reader, EBOOK, "Digital");
    await continueToReview(reader, {});
    const { idempotencyKey, shownTotal } = await reviewForm(reader);
    const placed = await reader.request("/review-order", { form: { idempotencyKey, shownTotal } });
    const paid = await pay(reader, placed.headers.get("location")!, "4242 4242 4242 4242");
    const orderPath = pathOf(paid.headers.get("location")).split("?")[0]!;
    expect((await reader.page(orderPath))("dd").text()).toContain("Purchased");
    const refused = await reader.request(orderPath, { form: CANCEL });
    expect(refused.status).toBe(409);
    const $ = cheerio.load(await refused.text());
    expect($("[role=alert]").text()).toContain("This order has been paid, so it can no longer be cancelled");
    expect((await reader.page(orderPath))("dd").text()).toContain("Purchased");
  });
});

describe("signed-in checkout", () => {
  it("buys with the account's e-mail, saves the address, and shows the order to its buyer only", async () => {
    const reader = await registeredReader(server.url);
    await addToCart(reader, HARDCOVER, "Ship");
    await addToCart(reader, EBOOK, "Digital");
    const $form = await reader.page("/shipping-payment");
    expect($form("input[name=email]")).toHaveLength(0);
    await continueToReview(reader, { saveAddress: "on" });
    const { idempotencyKey, shownTotal } = await reviewForm(reader);
    const placed = await reader.request("/review-order", { form: { idempotencyKey, shownTotal } });
    const paid = await pay(reader, placed.headers.get("location")!, "4242 4242 4242 4242");
    const back = pathOf(paid.headers.get("location"));
    expect(back).toMatch(/^\/order\/ord_[A-Za-z0-9_-]{22}\?session_id=/);
    const $order = await reader.page(back);
    expect($order("dd").text()).toContain("Purchased");

    const orderPath = back.split("?")[0]!;
    expect((await (await registeredReader(server.url)).request(orderPath)).status).toBe(404);
    expect((await new Reader(server.url).request(orderPath)).status).toBe(404);

    await addToCart(reader, EBOOK, "Digital");
    const $again = await reader.page("/shipping-payment");
    expect($again("input[name=addressChoice][type=radio]").length).toBe(2);
    expect($again("main label").text()).toContain("12 Harbour Road");
  });

  it("refuses a review whose prices no longer match what was shown, and charges nothing", async () => {
    const reader = await registeredReader(server.url);
    await addToCart(reader, EBOOK, "Digital");
    await continueToReview(reader, {});
    const { idempotencyKey, shownTotal } = await reviewForm(reader);
    const res = await reader.request("/review-order", { form: { idempotencyKey, shownTotal: String(Number(shownTotal) - 100) } });
    expect(res.status).toBe(409);
    const $ = cheerio.load(await res.text());
    expect($("[role=alert]").text()).toContain("Prices have changed since you reviewed your order");
    expect(await selectFromServer(database, "SELECT id FROM store_order WHERE idempotency_key = ?", [idempotencyKey])).toEqual([]);
  });
});

describe("guest orders and registration", () => {
  it("remembers a guest's order in this browser for exactly 7 days (spec §9, the order breadcrumb)", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email: `crumb.${Date.now()}@example.org` });
    const { idempotencyKey, shownTotal } = await reviewForm(guest);
    const placed = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    expect(placed.status).toBe(303);
    const cookie = placed.headers.getSetCookie().find((c) => c.startsWith("mr_guest_orders="));
    // 7 × 86,400 seconds, and no Expires to say otherwise.
    expect(cookie).toMatch(/; Max-Age=604800(;|$)/);
    expect(cookie).not.toMatch(/; Expires=/i);
  });

  it("moves a guest's paid order into the account they register with the order's e-mail", async () => {
    const guest = new Reader(server.url);
    const email = `claim.${Date.now()}@example.org`;
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email });
    const { idempotencyKey, shownTotal } = await reviewForm(guest);
    const placed = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    const paid = await pay(guest, placed.headers.get("location")!, "4242 4242 4242 4242");
    const back = pathOf(paid.headers.get("location"));
    const $done = await guest.page(back);
    const action = $done("form[action^='/register']").attr("action")!;
    const redirectTo = $done("input[name=redirectTo]").val() as string;
    const registered = await guest.request(action, {
      form: { firstName: "Grace", lastName: "Hopper", emailAddress: email, password: "Lantern5!quay", redirectTo },
    });
    expect(registered.status).toBe(303);
    const $claimed = await guest.page(pathOf(registered.headers.get("location")));
    expect($claimed("main").text()).toContain("This order is saved in your account");
    const orderPath = $claimed("a")
      .filter((_, a) => $claimed(a).text() === "View your order and receipt")
      .attr("href")!;
    expect(orderPath).toMatch(/^\/order\/ord_[A-Za-z0-9_-]{22}$/);
    expect((await guest.request(orderPath)).status).toBe(200);
  });
});

describe("vouchers", () => {
  it("sends any page with voucher_code to redeem it; a reader redeems once at no charge", async () => {
    const guest = new Reader(server.url);
    const res = await guest.request("/the-latest?voucher_code=GIFT-HARROW-0001");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/redeem?voucher_code=GIFT-HARROW-0001");
    const $guest = await guest.page("/redeem?voucher_code=GIFT-HARROW-0001");
    expect($guest("main a[href^='/sign-in']").length).toBe(1);

    const reader = await registeredReader(server.url);
    const redeemed = await reader.request("/redeem?voucher_code=GIFT-HARROW-0001", { form: { voucher_code: "GIFT-HARROW-0001" } });
    expect(redeemed.status).toBe(303);
    const $order = await reader.page(redeemed.headers.get("location")!);
    expect($order("main").text()).toContain("Your voucher has been redeemed.");
    expect($order("main").text()).toContain("$0.00");

    const $used = await reader.page("/redeem?voucher_code=GIFT-HARROW-0001");
    expect($used("[role=status]").text()).toBe("The voucher GIFT-HARROW-0001 has already been redeemed.");
    const $unknown = await reader.page("/redeem?voucher_code=NOPE-0000");
    expect($unknown("[role=status]").text()).toBe("We don't recognise the voucher code NOPE-0000. Please check it and try again.");
  });
});

describe("orders with nothing to pay", () => {
  it("skips the payment provider when a promo code takes the whole amount", async () => {
    const guest = new Reader(server.url);
    await addToCart(guest, EBOOK, "Digital");
    await continueToReview(guest, { email: `free.${Date.now()}@example.org`, promoCode: "EDITORS100" });
    const { $, idempotencyKey, shownTotal } = await reviewForm(guest);
    expect(shownTotal).toBe("0");
    expect($("main").text()).toContain("There is nothing to pay for this order.");
    const placed = await guest.request("/review-order", { form: { idempotencyKey, shownTotal } });
    expect(placed.status).toBe(303);
    expect(pathOf(placed.headers.get("location"))).toMatch(/^\/registration-complete\?order=ord_/);
    const rows = await selectFromServer<{ status: string; provider: string | null }>(
      database,
      "SELECT status, provider FROM store_order WHERE idempotency_key = ?",
      [idempotencyKey],
    );
    expect(rows).toEqual([{ status: "paid", provider: null }]);
  });
});

describe("maintenance", () => {
  it("closes shipping and payment and the review, and refuses orders", async () => {
    const closed = await startBuiltServer({ MAINTENANCE_MODE: "1" });
    try {
      const guest = new Reader(closed.url);
      const added = await guest.request("/shopping-cart", { form: cartAddForm(EBOOK, "Digital") });
      expect(added.status).toBeLessThan(400);
      for (const page of ["/shipping-payment", "/review-order"]) {
        const $ = await guest.page(page);
        expect($("main h2").text()).toContain("Ordering is closed for maintenance");
        expect($("main form")).toHaveLength(0);
      }
      const refused = await guest.request("/review-order", { form: { idempotencyKey: "a".repeat(24), shownTotal: "2499" } });
      expect(refused.status).toBe(503);
      const continued = await guest.request("/shipping-payment", {
        form: { intent: "continue", addressChoice: "new", ...SHIPPING_ADDRESS, email: "closed@example.org" },
      });
      expect(continued.status).toBe(503);
    } finally {
      await closed.stop();
    }
  }, 60_000);

  it("names the configured window's hours in the site banner and the store's notice", async () => {
    const closed = await startBuiltServer({ MAINTENANCE_MODE: "1", STORE_MAINTENANCE_WINDOW: "22:00-01:15" });
    try {
      const guest = new Reader(closed.url);
      const topics = await guest.page("/topics");
      expect(topics("[role=status]").text()).toContain(
        "Ordering and order history are unavailable from 10pm to 1:15am EST for scheduled maintenance.",
      );
      expect(topics("body").text()).not.toContain("7:30am");
      const stream = await fetch(`${closed.url}/the-latest`);
      expect(stream.status).toBe(503);
      const streamText = cheerio
        .load(await stream.text())("main")
        .text();
      expect(streamText).toContain("Ordering and order history are unavailable from 10pm to 1:15am EST.");
      expect(streamText).not.toContain("7:30am");
      const checkout = await guest.page("/shipping-payment");
      expect(checkout("main").text()).toContain("Ordering and order history are unavailable from 10pm to 1:15am EST each day");
    } finally {
      await closed.stop();
    }
  }, 60_000);
});
