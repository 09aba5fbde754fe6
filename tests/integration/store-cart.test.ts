import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formValues } from "~/tests/helpers/checkout-flow";
import { Reader } from "~/tests/helpers/reader";
import { availableDateOnServer, specDay } from "~/tests/helpers/seed-dates";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The cart against the production build, as plain forms: adding (the server's own prices),
// the quantity rules and their messages, the stepper, estimates, other shoppers' lines, the guest
// cart merging at sign-in, and the header's mini cart.

const APOLOGY = "Our apologies, something went wrong.";
const VALID_NUMBER = "Please enter a valid number.";
const PASSWORD = "Lantern5!quay";

// Seed catalogue (content/store.json): availability ids are given in file order from 1001.
const HARDCOVER = { id: "1001", price: 3200 }; // The Patient Ledger, HBK, volume pricing
const EBOOK = { id: "1002", price: 2499 }; // The Patient Ledger, KND
const COMING_SOON = "1016"; // Machines at the Table, HBK, coming soon (days after seeding)
const REPRINT_PDF = "1031"; // The Hidden Cost of Consensus, permissions available

let database: IsolatedConnection;
let server: RunningServer;

beforeAll(async () => {
  database = await isolatedConnection("store-cart");
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", database);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const location = (res: Response) => res.headers.get("location") ?? "";

function add(r: Reader, fields: Record<string, string>) {
  return r.request("/shopping-cart", {
    form: { intent: "add", productUrl: `/product/x/${fields.productId}`, format: "Hardcover", referral: "03069", ...fields },
  });
}

/** The cart page's lines as the shopper reads them. */
async function cartPage(r: Reader) {
  const $ = await r.page("/shopping-cart");
  const lines = (section: string) =>
    $(`section[aria-labelledby=${section}] tbody tr`)
      .map((_, tr) => ({
        id: $(tr).find("input[name=lineId]").first().attr("value")!,
        title: $(tr).find("th a").text(),
        type: $(tr).find("td[data-label=Type]").text(),
        quantity: $(tr).find("input[name=quantity]").attr("value") ?? $(tr).find("span[id^=quantity-]").text(),
        price: $(tr).find("td[data-label=Price]").text(),
        total: $(tr).find("td[data-label=Total]").text(),
      }))
      .get();
  const totals = Object.fromEntries(
    $("section[aria-labelledby=totals-title] dt")
      .map((_, dt) => [
        [
          $(dt)
            .text()
            .replace(/ \(.*\)$/, ""),
          $(dt).next("dd").text(),
        ],
      ])
      .get() as [string, string][],
  );
  return { $, physical: lines("physical-items"), digital: lines("digital-items"), totals, text: $("main").text() };
}

async function miniCartLabel(r: Reader, path = "/topics") {
  const $ = await r.page(path);
  return $("header a[href='/shopping-cart']").text();
}

async function register(r: Reader, email: string) {
  const res = await r.request("/register", { form: { firstName: "Ada", lastName: "Byron", emailAddress: email, password: PASSWORD } });
  expect(res.status).toBe(303);
}

const email = (label: string) => `${label}.${process.pid}.${Date.now()}@example.org`;

describe("adding to the cart", () => {
  it("prices from the catalogue whatever price is posted, then shows the confirmation with recommendations", async () => {
    const r = new Reader(server.url);
    const res = await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "2", productPrice: "0.01" });
    expect(res.status).toBe(303);
    expect(location(res)).toMatch(/^\/shopping-cart\/added\?line=[0-9a-f-]{36}$/);
    expect(r.cookie("mr_cart")).toBeTruthy();

    const $ = await r.page(location(res));
    expect($("h1").text()).toBe("Added to your cart");
    expect($("main").text()).toContain("The Patient Ledger");
    expect($("dl").text()).toContain("Hardcover");
    expect($("dl").text()).toContain("$32.00");
    expect($("h2").text()).toContain("You might also like");
    expect($("section[aria-labelledby=also-like-title] li").length).toBe(4);
    expect($("main a[href='/shopping-cart']").text()).toBe("Checkout");

    const cart = await cartPage(r);
    expect(cart.physical).toMatchObject([{ quantity: "2", type: "Ship Ships to you", price: "$32.00", total: "$64.00" }]);
    expect(cart.totals.Subtotal).toBe("$64.00");
    expect(cart.totals["Estimated tax"]).toBe("Calculated at checkout");
    expect(cart.totals.Shipping).toBe("Calculated at checkout");
    expect(cart.$("a[href='/shipping-payment']").text()).toBe("Checkout");
    expect(cart.$("main a[href='/store']").text()).toBe("Continue shopping");
  });

  it("lists digital items apart from items to ship, and a second add of a physical item adds up", async () => {
    const r = new Reader(server.url);
    expect((await add(r, { productId: EBOOK.id, type: "Digital", quantity: "1", productPrice: "24.99" })).status).toBe(303);
    expect((await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "1" })).status).toBe(303);
    expect((await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "9" })).status).toBe(303);
    const cart = await cartPage(r);
    expect(cart.digital).toMatchObject([{ type: "Digital", quantity: "1", total: "$24.99" }]);
    // Ten copies: the 10% volume discount shows with the list price.
    expect(cart.physical).toMatchObject([{ quantity: "10", total: "$288.00" }]);
    expect(cart.physical[0]!.price).toContain("10% volume discount on $32.00");
    expect(cart.totals.Subtotal).toBe("$312.99");
  });

  it("refuses a bad quantity with the spec's message and the apology, never a 500, and adds nothing", async () => {
    const r = new Reader(server.url);
    for (const quantity of ["0", "-1", "abc", "1.5", "", "99999999999999999999"]) {
      const res = await add(r, { productId: HARDCOVER.id, type: "Ship", quantity });
      expect(res.status, quantity).toBe(400);
      const $ = cheerio.load(await res.text());
      expect($("[role=alert] h2").text()).toBe(APOLOGY);
      expect($("[role=alert]").text()).toContain(VALID_NUMBER);
      expect($("[role=alert]").text()).toContain(`Product id: ${HARDCOVER.id}`);
      expect($("[role=alert]").text()).toContain("+1 800 555 0142");
      expect($("title").text()).toMatch(/^Error: Shopping Cart/);
    }
    const huge = cheerio.load(await (await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "1000" })).text());
    expect(huge("[role=alert]").text()).toContain("Please enter a value that is less than 1000");
    expect((await cartPage(r)).text).toContain("Your Shopping Cart is empty.");
  });

  it("sells a digital item one to an order", async () => {
    const r = new Reader(server.url);
    const two = await add(r, { productId: EBOOK.id, type: "Digital", quantity: "2" });
    expect(two.status).toBe(400);
    expect(await two.text()).toContain("A digital item is sold one to an order");
    expect((await add(r, { productId: EBOOK.id, type: "Digital" })).status).toBe(303);
    const again = await add(r, { productId: EBOOK.id, type: "Digital", quantity: "1" });
    expect(again.status).toBe(409);
    expect(
      cheerio
        .load(await again.text())("[role=alert]")
        .text(),
    ).toContain("this one is already in your cart");
    // A digital item posted as if it shipped is refused for its type, and stays one to an order.
    const asShipped = await add(r, { productId: EBOOK.id, type: "Ship", quantity: "3" });
    expect(asShipped.status).toBe(400);
    expect(
      cheerio
        .load(await asShipped.text())("[role=alert]")
        .text(),
    ).toContain("This format is digital: add it with type Digital.");

    const { digital } = await cartPage(r);
    const up = await r.request("/shopping-cart", { form: { intent: "update", lineId: digital[0]!.id, set: "2" } });
    expect(up.status).toBe(400);
    expect(
      cheerio
        .load(await up.text())("[role=alert]")
        .text(),
    ).toContain("its quantity cannot be more than 1");
    expect((await cartPage(r)).digital).toMatchObject([{ quantity: "1" }]);
  });

  it("takes a coming-soon item as a pre-order, and the cart says so with its date", async () => {
    const r = new Reader(server.url);
    expect((await add(r, { productId: COMING_SOON, type: "Ship", quantity: "1" })).status).toBe(303);
    const cart = await cartPage(r);
    expect(cart.physical).toHaveLength(1);
    expect(cart.text).toContain(`Pre-order: Available ${specDay(await availableDateOnServer(database, Number(COMING_SOON)))}`);
  });

  it("refuses unknown items, and permissions where none are offered", async () => {
    const r = new Reader(server.url);
    const unknown = await add(r, { productId: "999999", type: "Ship", quantity: "1" });
    expect(unknown.status).toBe(404);
    expect(
      cheerio
        .load(await unknown.text())("[role=alert] h2")
        .text(),
    ).toBe(APOLOGY);
    expect((await add(r, { productId: "abc", type: "Ship", quantity: "1" })).status).toBe(400);
    expect((await add(r, { productId: HARDCOVER.id, type: "Gift", quantity: "1" })).status).toBe(400);

    const perm = await add(r, { productId: HARDCOVER.id, type: "Perm", quantity: "50" });
    expect(perm.status).toBe(409);
    expect(await perm.text()).toContain("Copyright permissions are not offered for this item.");
    expect((await cartPage(r)).text).toContain("Your Shopping Cart is empty.");
  });

  it("adds copyright permissions as their own Perm line, priced per copy", async () => {
    const r = new Reader(server.url);
    expect((await add(r, { productId: REPRINT_PDF, type: "Digital", quantity: "1", format: "PDF" })).status).toBe(303);
    expect((await add(r, { productId: REPRINT_PDF, type: "Perm", quantity: "250", format: "PDF" })).status).toBe(303);
    const cart = await cartPage(r);
    expect(cart.digital).toHaveLength(2);
    expect(cart.digital[1]).toMatchObject({ type: "Perm Copyright permission", quantity: "250", price: "$1.25", total: "$312.50" });
    expect(cart.digital[1]!.title).toMatch(/^Copyright permissions: /);
    const tooMany = await add(r, { productId: REPRINT_PDF, type: "Perm", quantity: "10001" });
    expect(
      cheerio
        .load(await tooMany.text())("[role=alert]")
        .text(),
    ).toContain("Please enter a value that is less than 10001");
  });

  it("answers a post from another site with 403, and an unknown intent with 400", async () => {
    const r = new Reader(server.url);
    const foreign = await r.request("/shopping-cart", {
      form: { intent: "add", productId: HARDCOVER.id, type: "Ship", quantity: "1" },
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    expect(r.cookie("mr_cart")).toBeUndefined();
    expect((await r.request("/shopping-cart", { form: { intent: "empty" } })).status).toBe(400);
  });
});

describe("the cart page", () => {
  it("steps quantities up and down; 0 removes the line; every change redirects (PRG)", async () => {
    const r = new Reader(server.url);
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "2" });
    const [line] = (await cartPage(r)).physical;
    const step = async (fields: Record<string, string>) => {
      const res = await r.request("/shopping-cart", { form: { intent: "update", lineId: line!.id, ...fields } });
      expect(res.status).toBe(303);
      expect(location(res)).toBe("/shopping-cart");
    };
    await step({ set: "3" });
    expect((await cartPage(r)).physical[0]!.quantity).toBe("3");
    await step({ quantity: "12" });
    expect((await cartPage(r)).physical[0]).toMatchObject({ quantity: "12", total: `$${((12 * 2880) / 100).toFixed(2)}` });
    for (const quantity of ["-1", "x", "2.5"]) {
      const res = await r.request("/shopping-cart", { form: { intent: "update", lineId: line!.id, quantity } });
      expect(res.status, quantity).toBe(400);
      const $ = cheerio.load(await res.text());
      expect($("#error-summary-title").text()).toBe("There is a problem");
      expect($("[role=alert] a").attr("href")).toBe(`#quantity-${line!.id}`);
      expect($(`#quantity-${line!.id}-error`).text()).toBe(VALID_NUMBER);
    }
    const huge = await r.request("/shopping-cart", { form: { intent: "update", lineId: line!.id, quantity: "1000" } });
    expect(
      cheerio
        .load(await huge.text())(`#quantity-${line!.id}-error`)
        .text(),
    ).toBe("Please enter a value that is less than 1000");
    expect((await cartPage(r)).physical[0]!.quantity).toBe("12");
    await step({ set: "0" });
    expect((await cartPage(r)).text).toContain("Your Shopping Cart is empty.");
  });

  it("takes a typed quantity from its form's own fields, as a browser without the form attribute (w3m) posts them", async () => {
    const r = new Reader(server.url);
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "2" });
    const $ = await r.page("/shopping-cart");
    const row = $("section[aria-labelledby=physical-items] tbody tr").first();
    const update = row.find("button").filter((_, b) => $(b).text().startsWith("Update quantity of "));
    const form = update.closest("form");
    // What such a browser sends for Update (which has no name): the form's own fields, the box holding what was typed.
    const typed = { ...formValues($, form) };
    if ("quantity" in typed) typed.quantity = "5";
    const res = await r.request("/shopping-cart", { form: typed });
    expect(res.status).toBe(303);
    expect((await cartPage(r)).physical[0]!.quantity).toBe("5");
    // "−" and "+" are in that form too, and post their own value whatever the box holds.
    const plus = form.find("button[name=set]").filter((_, b) => $(b).text().includes("Increase quantity of "));
    expect(plus.attr("value")).toBe("3");
    await r.request("/shopping-cart", { form: { ...formValues($, form), quantity: "9", set: plus.attr("value")! } });
    expect((await cartPage(r)).physical[0]!.quantity).toBe("3");
  });

  it("removes a line", async () => {
    const r = new Reader(server.url);
    await add(r, { productId: EBOOK.id, type: "Digital" });
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "1" });
    const { digital } = await cartPage(r);
    const res = await r.request("/shopping-cart", { form: { intent: "remove", lineId: digital[0]!.id } });
    expect(res.status).toBe(303);
    const cart = await cartPage(r);
    expect(cart.digital).toHaveLength(0);
    expect(cart.physical).toHaveLength(1);
  });

  it("answers 404 for another shopper's line, an unknown line and a cart that does not exist", async () => {
    const owner = new Reader(server.url);
    const added = await add(owner, { productId: HARDCOVER.id, type: "Ship", quantity: "1" });
    const lineId = new URL(location(added), server.url).searchParams.get("line")!;
    const other = new Reader(server.url);
    await add(other, { productId: EBOOK.id, type: "Digital" });
    for (const r of [other, new Reader(server.url)]) {
      expect((await r.request("/shopping-cart", { form: { intent: "update", lineId, set: "5" } })).status).toBe(404);
      expect((await r.request("/shopping-cart", { form: { intent: "remove", lineId } })).status).toBe(404);
      expect((await r.request(`/shopping-cart/added?line=${lineId}`)).status).toBe(404);
    }
    expect((await other.request("/shopping-cart", { form: { intent: "update", lineId: "not-a-line", set: "1" } })).status).toBe(404);
    expect((await other.request("/shopping-cart/added?line=00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await owner.request(`/shopping-cart/added?line=${lineId}`)).status).toBe(200);
    expect((await cartPage(owner)).physical[0]!.quantity).toBe("1");
  });

  it("estimates tax and the cheapest shipping for a destination and remembers it", async () => {
    const r = new Reader(server.url);
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "1" });
    await add(r, { productId: EBOOK.id, type: "Digital" });
    const bad = await r.request("/shopping-cart", { form: { intent: "estimate", country: "US", region: "", postalCode: "1000" } });
    expect(bad.status).toBe(400);
    const $ = cheerio.load(await bad.text());
    expect($("#cart-estimate-region-error").text()).toBe("This field is required.");
    expect($("#cart-estimate-postalCode-error").text()).toBe("Please enter a valid value into this field.");
    expect((await r.request("/shopping-cart", { form: { intent: "estimate", country: "ZZ", postalCode: "1" } })).status).toBe(400);

    const res = await r.request("/shopping-cart", { form: { intent: "estimate", country: "US", region: "NY", postalCode: "10001" } });
    expect(res.status).toBe(303);
    expect(location(res)).toBe("/shopping-cart");
    const cart = await cartPage(r);
    // $56.99 at New York's 4%: $2.28; one shipped copy under $75 by Standard: $5.95.
    expect(cart.totals).toMatchObject({ Subtotal: "$56.99", "Estimated tax": "$2.28", Shipping: "$5.95", "Grand total": "$65.22" });
    expect(cart.$("dt").text()).toContain("Shipping (Standard)");
    expect(cart.$("#cart-estimate-postalCode").attr("value")).toBe("10001");

    await r.request("/shopping-cart", { form: { intent: "estimate", country: "GB", postalCode: "SW1A 1AA" } });
    expect((await cartPage(r)).totals).toMatchObject({ "Estimated tax": "$0.00", Shipping: "$24.95", "Grand total": "$81.94" });
  });
});

describe("the header's mini cart and the guest cart", () => {
  it("counts the items in the header on every page", async () => {
    const r = new Reader(server.url);
    expect(await miniCartLabel(r)).toBe("Cart (0 items)");
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "2" });
    await add(r, { productId: EBOOK.id, type: "Digital" });
    expect(await miniCartLabel(r)).toBe("Cart (3 items)");
    expect(await miniCartLabel(r, "/shopping-cart")).toBe("Cart (3 items)");
  });

  it("merges a guest cart into the reader's cart at sign-in", async () => {
    const address = email("cart-merge");
    const r = new Reader(server.url);
    await register(r, address);
    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "1" });
    expect((await r.request("/logout", { form: {} })).status).toBe(303);
    expect(await miniCartLabel(r)).toBe("Cart (0 items)");

    await add(r, { productId: HARDCOVER.id, type: "Ship", quantity: "2" });
    await add(r, { productId: EBOOK.id, type: "Digital" });
    expect(await miniCartLabel(r)).toBe("Cart (3 items)");
    const signIn = await r.request("/sign-in", { form: { username: address, password: PASSWORD, redirectTo: "/shopping-cart" } });
    expect(signIn.status).toBe(303);
    const cart = await cartPage(r);
    expect(cart.physical).toMatchObject([{ quantity: "3" }]);
    expect(cart.digital).toMatchObject([{ type: "Digital", quantity: "1" }]);
    expect(await miniCartLabel(r)).toBe("Cart (4 items)");
  });
});
