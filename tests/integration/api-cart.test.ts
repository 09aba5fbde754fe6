import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiContract } from "~/tests/helpers/api-contract";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { availableDateOnServer } from "~/tests/helpers/seed-dates";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The cart group of the service API (app/lib/api/groups/cart.ts) against the production build,
// as an outside client meets it: JSON in and out, the cart cookie for a guest, the session for a
// reader, every answer checked against the published OpenAPI document.

// Seed catalogue (content/store.json): availability ids are given in file order from 1001.
const HARDCOVER = { id: 1001, price: 3200 }; // The Patient Ledger, HBK, volume pricing
const EBOOK = { id: 1002, price: 2499 }; // The Patient Ledger, KND
const COMING_SOON = 1016; // Machines at the Table, HBK, coming soon (days after seeding)
const COMING_SOON_PRODUCT = 6; // Machines at the Table: product ids are given in file order from 1
const REPRINT_PDF = 1031; // The Hidden Cost of Consensus, permissions available
const BUNDLE = { id: 1023, price: 5900 }; // Strategy Essentials Collection, BUN: it ships

const VALID_NUMBER = "Please enter a valid number.";
const DIGITAL_LIMIT = "A digital item is sold one to an order, so its quantity cannot be more than 1.";
const REQUIRED = "This field is required.";

let database: IsolatedConnection;
let server: RunningServer;
let contract: ApiContract;

beforeAll(async () => {
  database = await isolatedConnection("api-cart");
  server = await startBuiltServer({ RATE_LIMIT_PER_IP: "100000", RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", database);
  contract = await ApiContract.load(server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

interface Money {
  cents: number;
  formatted: string;
}
interface Line {
  id: string;
  availabilityId: number;
  productId: number;
  title: string;
  type: string;
  quantity: number;
  unitPrice: Money;
  linePrice: Money;
  productUrl: string;
}
/** A line as the spec's Cart entity lists it. */
interface CartItem {
  itemid: string;
  productId: number;
  name: string;
  url: string;
  listPrice: Money;
  quantity: number;
  type: string;
  referral: string | null;
}
interface CartBody {
  cart_amount: Money;
  line_items: { physical_items: CartItem[]; digital_items: CartItem[] };
  subTotal: Money;
  tax: Money | null;
  shippingCost: Money | null;
  grandTotal: Money | null;
  lines: Line[];
  count: number;
  subtotal: Money;
}
interface AddBody {
  items: { productId: string; added: boolean; lineId?: string; code?: string; message?: string }[];
  cart: CartBody;
}
interface ErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string[]>;
  items?: AddBody["items"];
}

/** An amount as the API gives it. */
const money = (cents: number): Money => ({ cents, formatted: `$${(cents / 100).toFixed(2)}` });

const guest = () => new Reader(server.url);
const reader = () => registeredReader(server.url);

/** Calls and checks the answer against the document, expecting a status. */
async function expectAnswer<T>(client: Reader, method: string, path: string, documented: string, status: number, body?: unknown) {
  const { res, json } = await contract.call<T>(client, method, documented, { path, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(json).slice(0, 300)}`).toBe(status);
  return { res, body: json };
}

const getCart = async (c: Reader) => (await expectAnswer<CartBody>(c, "GET", "/api/shopping-cart", "/api/shopping-cart", 200)).body;
const add = (c: Reader, items: unknown, status = 200) =>
  expectAnswer<AddBody>(c, "POST", "/api/shopping-cart", "/api/shopping-cart", status, items);
const addError = (c: Reader, items: unknown, status: number) =>
  expectAnswer<ErrorBody>(c, "POST", "/api/shopping-cart", "/api/shopping-cart", status, items);
const remove = <T>(c: Reader, body: unknown, status: number) =>
  expectAnswer<T>(c, "DELETE", "/api/shopping-cart", "/api/shopping-cart", status, body);

const shipped = (id: number, quantity: number | string = 1) => ({ productId: id, type: "Ship", quantity });

describe("GET /api/shopping-cart", () => {
  it("gives a caller with no cart an empty one", async () => {
    expect(await getCart(guest())).toEqual({
      cart_amount: money(0),
      line_items: { physical_items: [], digital_items: [] },
      subTotal: money(0),
      tax: null,
      shippingCost: null,
      grandTotal: null,
      lines: [],
      count: 0,
      subtotal: money(0),
    });
  });

  it("speaks the spec's Cart entity: physical and digital items with their ids, list prices, types and referrals, and the totals", async () => {
    const client = guest();
    const added = await add(client, [
      { ...shipped(HARDCOVER.id, 10), referral: "03069" },
      { productId: EBOOK.id, type: "Digital" },
      { productId: REPRINT_PDF, type: "Perm", quantity: 120 },
    ]);
    const lineId = (id: number, type: string) => added.body.cart.lines.find((l) => l.availabilityId === id && l.type === type)!.id;
    const cart = await getCart(client);
    expect(cart.line_items.physical_items).toEqual([
      {
        itemid: lineId(HARDCOVER.id, "Ship"),
        productId: HARDCOVER.id,
        name: "The Patient Ledger: Capital Allocation for Long-Horizon Companies",
        url: expect.stringMatching(new RegExp(`/${HARDCOVER.id}$`)),
        listPrice: money(HARDCOVER.price),
        quantity: 10,
        type: "Ship",
        referral: "03069",
      },
    ]);
    // Permissions are delivered as a licence document: they list with the digital items.
    expect(cart.line_items.digital_items.map((i) => [i.itemid, i.productId, i.type, i.quantity, i.referral])).toEqual([
      [lineId(EBOOK.id, "Digital"), EBOOK.id, "Digital", 1, null],
      [lineId(REPRINT_PDF, "Perm"), REPRINT_PDF, "Perm", 120, null],
    ]);
    expect(cart.line_items.digital_items.map((i) => i.listPrice)).toEqual([money(EBOOK.price), money(150)]);
    // The list prices are before discounts; the subtotal adds the lines at their prices: 10 copies at
    // 10 % off, the ebook, and 120 permissions at the tier's $1.25.
    const sum = 10 * 2880 + EBOOK.price + 120 * 125;
    expect(cart.lines.reduce((n, l) => n + l.linePrice.cents, 0)).toBe(sum);
    expect(cart.subTotal).toEqual(money(sum));
    expect(cart.cart_amount).toEqual(money(sum));
    expect([cart.tax, cart.shippingCost, cart.grandTotal]).toEqual([null, null, null]);

    // Once the cart page's estimate knows the destination, tax, shipping and the grand total are its figures.
    const estimate = await expectAnswer<{ estimate: { tax: Money; shipping: { cents: number }; total: Money } }>(
      client,
      "POST",
      "/api/shopping-cart/estimate",
      "/api/shopping-cart/estimate",
      200,
      { country: "US", region: "NY", postalCode: "10001" },
    );
    const withTotals = await getCart(client);
    expect(withTotals.tax).toEqual(estimate.body.estimate.tax);
    expect(withTotals.shippingCost).toEqual(money(estimate.body.estimate.shipping.cents));
    expect(withTotals.grandTotal).toEqual(estimate.body.estimate.total);
    expect(withTotals.grandTotal!.cents).toBe(sum + withTotals.tax!.cents + withTotals.shippingCost!.cents);
    const $ = await client.page("/shopping-cart");
    expect($("section[aria-labelledby=totals-title]").text()).toContain(withTotals.grandTotal!.formatted);
  });
});

describe("POST /api/shopping-cart", () => {
  it("adds a guest's list of items at the catalogue's prices and sets the cart cookie the cart page then reads", async () => {
    const client = guest();
    const { res, body } = await add(client, [
      { ...shipped(HARDCOVER.id, "2"), productPrice: "0.01", referral: "03069" },
      { productId: String(EBOOK.id), type: "Digital" },
    ]);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("mr_cart="))).toBe(true);
    expect(body.items.map((i) => [i.productId, i.added])).toEqual([
      [String(HARDCOVER.id), true],
      [String(EBOOK.id), true],
    ]);
    const lines = body.cart.lines.map((l) => [l.availabilityId, l.type, l.quantity, l.unitPrice.cents, l.linePrice.formatted]);
    expect(lines).toEqual([
      [HARDCOVER.id, "Ship", 2, HARDCOVER.price, "$64.00"],
      [EBOOK.id, "Digital", 1, EBOOK.price, "$24.99"],
    ]);
    expect(body.cart.count).toBe(3);
    expect(body.cart.subtotal).toEqual({ cents: 2 * HARDCOVER.price + EBOOK.price, formatted: "$88.99" });
    expect(body.cart.lines[0]!.productUrl).toMatch(new RegExp(`^/product/[a-z0-9-]+/${HARDCOVER.id}$`));

    // The same cart, by its cookie, through the API and on the page.
    expect(await getCart(client)).toEqual(body.cart);
    const $ = await client.page("/shopping-cart");
    expect($("section[aria-labelledby=totals-title]").text()).toContain("$88.99");
    // Adding again adds up on the same line, as the page does.
    const again = await add(client, [shipped(HARDCOVER.id, 1)]);
    expect(again.body.cart.lines.find((l) => l.availabilityId === HARDCOVER.id)!.quantity).toBe(3);
    expect(again.res.headers.getSetCookie().some((c) => c.startsWith("mr_cart="))).toBe(false);
  });

  it("keeps a reader's cart with their account, whichever client they use", async () => {
    const client = await reader();
    await add(client, [{ productId: REPRINT_PDF, type: "Perm", quantity: 120 }]);
    const other = new Reader(server.url);
    other.setCookie("mr_session", client.cookie("mr_session")!);
    const cart = await getCart(other);
    expect(cart.lines.map((l) => [l.availabilityId, l.type, l.quantity, l.unitPrice.cents])).toEqual([[REPRINT_PDF, "Perm", 120, 125]]);
    expect(cart.lines[0]!.title).toMatch(/^Copyright permissions: /);
    expect(cart.count).toBe(1);
    // A guest (no session) does not see it.
    expect((await getCart(guest())).lines).toEqual([]);
  });

  it("refuses input the product page's form refuses, with its messages, adding nothing", async () => {
    const client = guest();
    await add(client, [shipped(HARDCOVER.id)]);
    const zero = await addError(client, [shipped(HARDCOVER.id, 0)], 400);
    expect(zero.body.fields).toEqual({ "0.quantity": [VALID_NUMBER] });
    const digital = await addError(client, [shipped(EBOOK.id), { productId: EBOOK.id, type: "Digital", quantity: 2 }], 400);
    expect(digital.body.fields).toEqual({ "1.quantity": [DIGITAL_LIMIT] });
    const over = await addError(client, [shipped(HARDCOVER.id, 1000)], 400);
    expect(over.body.fields?.["0.quantity"]?.[0]).toMatch(/^Please enter a value that is less than \d+$/);
    const noId = await addError(client, [{ type: "Ship", quantity: 1 }], 400);
    expect(noId.body.fields).toEqual({ "0.productId": [REQUIRED] });
    expect((await addError(client, {}, 400)).body.code).toBe("invalid_input");
    expect((await addError(client, [], 400)).body.fields).toEqual({ form: ["Please add at least one item."] });
    const cart = await getCart(client);
    expect(cart.lines.map((l) => [l.availabilityId, l.quantity])).toEqual([[HARDCOVER.id, 1]]);
  });

  it("refuses an item whose type is not how its format is delivered with 400 and the field's error, adding nothing", async () => {
    const client = guest();
    // A bundle ships: posted as Digital, it is refused rather than put on a Ship line.
    const bundle = await addError(client, [{ productId: BUNDLE.id, type: "Digital" }], 400);
    expect(bundle.body).toMatchObject({ code: "wrong-type", fields: { "0.type": ["This format ships to you: add it with type Ship."] } });
    const ebook = await addError(client, [shipped(EBOOK.id), { productId: BUNDLE.id, type: "Digital" }], 400);
    expect(ebook.body.fields).toEqual({
      "0.type": ["This format is digital: add it with type Digital."],
      "1.type": ["This format ships to you: add it with type Ship."],
    });
    expect((await getCart(client)).lines).toEqual([]);
    // Posted as what it is, it lands on its Ship line; a good item beside a wrong one is added, and the wrong one named.
    const mixed = await add(client, [shipped(BUNDLE.id), { productId: BUNDLE.id, type: "Digital" }]);
    expect(mixed.body.items.map((i) => [i.added, i.code ?? null])).toEqual([
      [true, null],
      [false, "wrong-type"],
    ]);
    expect(mixed.body.cart.lines.map((l) => [l.availabilityId, l.type, l.quantity])).toEqual([[BUNDLE.id, "Ship", 1]]);
  });

  it("answers what the store refuses as the page does: unknown items 404, the digital limit 409; a coming-soon item is a pre-order", async () => {
    const client = guest();
    const unknown = await addError(client, [shipped(999_999)], 404);
    expect(unknown.body).toMatchObject({ code: "unknown-product", message: "This item is not in our catalogue." });
    // Nothing was added, so a guest gets no cart cookie.
    expect(client.cookie("mr_cart")).toBeUndefined();
    const preorder = await add(guest(), [shipped(COMING_SOON)]);
    expect(preorder.body.items).toMatchObject([{ added: true }]);
    expect(preorder.body.cart.lines.map((l) => l.availabilityId)).toEqual([COMING_SOON]);
    const noPerms = await addError(client, [{ productId: HARDCOVER.id, type: "Perm", quantity: 5 }], 409);
    expect(noPerms.body.message).toBe("Copyright permissions are not offered for this item.");

    await add(client, [{ productId: EBOOK.id, type: "Digital" }]);
    const twice = await addError(client, [{ productId: EBOOK.id, type: "Digital" }], 409);
    expect(twice.body.message).toBe("A digital item is sold one to an order, and this one is already in your cart.");

    // A list where some are added: 200, with each item's outcome.
    const mixed = await add(client, [shipped(HARDCOVER.id), shipped(999_999)]);
    expect(mixed.body.items).toEqual([
      expect.objectContaining({ productId: String(HARDCOVER.id), added: true }),
      { productId: "999999", added: false, code: "unknown-product", message: "This item is not in our catalogue." },
    ]);
    expect(mixed.body.cart.lines.map((l) => l.availabilityId)).toEqual([EBOOK.id, HARDCOVER.id]);
  });
});

describe("DELETE /api/shopping-cart", () => {
  it("removes one of the caller's lines, or empties the cart", async () => {
    const client = await reader();
    const { body } = await add(client, [shipped(HARDCOVER.id, 2), { productId: EBOOK.id, type: "Digital" }]);
    const [hardcover, ebook] = body.cart.lines;
    const after = await remove<CartBody>(client, { lineId: hardcover!.id }, 200);
    expect(after.body.lines.map((l) => l.id)).toEqual([ebook!.id]);
    expect(after.body.subtotal.cents).toBe(EBOOK.price);
    // Gone: a second remove is a 404.
    expect((await remove<ErrorBody>(client, { lineId: hardcover!.id }, 404)).body.code).toBe("not_found");
    const emptied = await remove<CartBody>(client, { all: true }, 200);
    expect(emptied.body).toMatchObject({
      line_items: { physical_items: [], digital_items: [] },
      subTotal: money(0),
      lines: [],
      count: 0,
      subtotal: money(0),
    });
    expect((await getCart(client)).lines).toEqual([]);
  });

  it("refuses a body naming neither a line nor the whole cart", async () => {
    const client = guest();
    await add(client, [shipped(HARDCOVER.id)]);
    expect((await remove<ErrorBody>(client, {}, 400)).body.fields).toEqual({
      lineId: ["Please name one line (lineId) or the whole cart (all: true)."],
    });
    expect((await remove<ErrorBody>(client, { lineId: 5 }, 400)).body.fields?.lineId).toBeDefined();
    expect((await remove<ErrorBody>(client, { lineId: "not-a-line" }, 404)).body.code).toBe("not_found");
    expect((await getCart(client)).lines).toHaveLength(1);
  });

  it("never touches someone else's cart: their line is a 404 and stays", async () => {
    const owner = await reader();
    const { body } = await add(owner, [shipped(HARDCOVER.id, 3)]);
    const lineId = body.cart.lines[0]!.id;
    const guestOwner = guest();
    const guestLine = (await add(guestOwner, [shipped(HARDCOVER.id)])).body.cart.lines[0]!.id;

    const stranger = await reader();
    await add(stranger, [{ productId: EBOOK.id, type: "Digital" }]);
    expect((await remove<ErrorBody>(stranger, { lineId }, 404)).body.message).toBe("No such line in your cart");
    expect((await remove<ErrorBody>(stranger, { lineId: guestLine }, 404)).body.code).toBe("not_found");
    expect((await remove<ErrorBody>(guest(), { lineId }, 404)).body.code).toBe("not_found");
    // Emptying one's own cart leaves the others alone.
    await remove<CartBody>(stranger, { all: true }, 200);

    expect((await getCart(owner)).lines.map((l) => [l.id, l.quantity])).toEqual([[lineId, 3]]);
    expect((await getCart(guestOwner)).lines.map((l) => l.id)).toEqual([guestLine]);
  });
});

describe("POST /api/shopping-cart/estimate", () => {
  const PATH = "/api/shopping-cart/estimate";
  interface EstimateBody {
    destination: { country: string; region: string | null; postalCode: string };
    estimate: { subtotal: Money; tax: Money; shipping: { name: string; cents: number; formatted: string } | null; total: Money } | null;
  }

  it("estimates tax and the cheapest shipping as the cart page does, and the page shows the same", async () => {
    const client = guest();
    await add(client, [shipped(HARDCOVER.id, 2)]);
    const { res, body } = await expectAnswer<EstimateBody>(client, "POST", PATH, PATH, 200, {
      country: "US",
      region: "NY",
      postalCode: "10001",
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith("mr_cart_estimate="))).toBe(true);
    expect(body.destination).toEqual({ country: "US", region: "NY", postalCode: "10001" });
    const estimate = body.estimate!;
    expect(estimate.subtotal.cents).toBe(2 * HARDCOVER.price);
    expect(estimate.shipping).not.toBeNull();
    expect(estimate.total.cents).toBe(estimate.subtotal.cents + estimate.tax.cents + estimate.shipping!.cents);

    const $ = await client.page("/shopping-cart");
    const totals = $("section[aria-labelledby=totals-title]").text();
    expect(totals).toContain(estimate.tax.formatted);
    expect(totals).toContain(estimate.total.formatted);
  });

  it("has nothing to ship for a digital-only cart, and no estimate for an empty one", async () => {
    const client = guest();
    const empty = await expectAnswer<EstimateBody>(client, "POST", PATH, PATH, 200, { country: "GB", postalCode: "SW1A 1AA" });
    expect(empty.body).toEqual({ destination: { country: "GB", region: null, postalCode: "SW1A 1AA" }, estimate: null });
    await add(client, [{ productId: EBOOK.id, type: "Digital" }]);
    const digital = await expectAnswer<EstimateBody>(client, "POST", PATH, PATH, 200, { country: "GB", postalCode: "SW1A 1AA" });
    expect(digital.body.estimate!.shipping).toBeNull();
  });

  it("refuses what the estimate form refuses, with its messages", async () => {
    const client = guest();
    const bad = await expectAnswer<ErrorBody>(client, "POST", PATH, PATH, 400, { country: "US", postalCode: "ABC" });
    expect(bad.body.fields).toEqual({ region: [REQUIRED], postalCode: ["Please enter a valid value into this field."] });
    const noCountry = await expectAnswer<ErrorBody>(client, "POST", PATH, PATH, 400, { country: "XX", postalCode: "1234" });
    expect(noCountry.body.fields?.country).toEqual(["Please select a valid value"]);
    expect(client.cookie("mr_cart_estimate")).toBeUndefined();
  });
});

describe("GET /service/product/{id}/availabilities", () => {
  const DOC = "/service/product/{id}/availabilities";
  interface AvailabilityBody {
    productId: number;
    title: string;
    availabilities: {
      availabilityId: number;
      format: string;
      listPrice: Money;
      lineType: string;
      status: string;
      availableDate: string | null;
      permissionsAvailable: boolean;
      isVolumePricingAvailable: boolean;
      productUrl: string;
    }[];
  }
  const productOf = async (availabilityId: number) => {
    const client = guest();
    const { body } = await add(client, [shipped(availabilityId)]);
    return body.cart.lines[0]!.productId;
  };

  it("lists a product's formats, prices and status, as its product page sells them", async () => {
    const id = await productOf(HARDCOVER.id);
    const { body } = await expectAnswer<AvailabilityBody>(guest(), "GET", `/service/product/${id}/availabilities`, DOC, 200);
    expect(body.productId).toBe(id);
    expect(body.title).toMatch(/^The Patient Ledger/);
    const hardcover = body.availabilities.find((a) => a.availabilityId === HARDCOVER.id)!;
    expect(hardcover).toMatchObject({
      listPrice: { cents: HARDCOVER.price, formatted: "$32.00" },
      lineType: "SHIP",
      status: "AVAILABLE",
      isVolumePricingAvailable: true,
    });
    const ebook = body.availabilities.find((a) => a.availabilityId === EBOOK.id)!;
    expect(ebook.listPrice.cents).toBe(EBOOK.price);
    expect(ebook.lineType).not.toBe("SHIP");
    // The product page at each availability's address is there.
    const $ = await new Reader(server.url).page(hardcover.productUrl);
    expect($("h1").text()).toContain("The Patient Ledger");
  });

  it("gives a coming-soon item its status and date", async () => {
    const { body } = await expectAnswer<AvailabilityBody>(
      guest(),
      "GET",
      `/service/product/${COMING_SOON_PRODUCT}/availabilities`,
      DOC,
      200,
    );
    expect(body.title).toMatch(/^Machines at the Table/);
    expect(body.availabilities.find((a) => a.availabilityId === COMING_SOON)).toMatchObject({
      status: "COMING_SOON",
      availableDate: await availableDateOnServer(database, COMING_SOON),
    });
  });

  it("answers 404 for an unknown product and 400 for an id that is not a number", async () => {
    const unknown = await expectAnswer<ErrorBody>(guest(), "GET", "/service/product/99999999/availabilities", DOC, 404);
    expect(unknown.body.message).toBe("This item is not in our catalogue.");
    const bad = await expectAnswer<ErrorBody>(guest(), "GET", "/service/product/abc/availabilities", DOC, 400);
    expect(bad.body.fields).toEqual({ id: [VALID_NUMBER] });
  });
});

describe("the cart group's common rules", () => {
  it("refuses a cart change another site started", async () => {
    const res = await fetch(`${server.url}/api/shopping-cart`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify([shipped(HARDCOVER.id)]),
    });
    expect(res.status).toBe(403);
    expect(((await contract.check("/api/shopping-cart", "post", res)) as ErrorBody).code).toBe("cross_site");
  });

  it("refuses a body nested deeper than any input goes with a 400", async () => {
    const res = await fetch(`${server.url}/api/shopping-cart`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: `${"[".repeat(5000)}${"]".repeat(5000)}`,
    });
    expect(res.status).toBe(400);
    expect(((await contract.check("/api/shopping-cart", "post", res)) as ErrorBody).code).toBe("unreadable_body");
  });

  it("answers a page browser's cart the same as the API's", async () => {
    const browser = new Reader(server.url);
    const res = await browser.request("/shopping-cart", {
      form: { intent: "add", productId: String(HARDCOVER.id), type: "Ship", quantity: "2", productUrl: "/product/x/1001" },
    });
    expect(res.status).toBe(303);
    const cart = await getCart(browser);
    expect(cart.lines.map((l) => [l.availabilityId, l.quantity])).toEqual([[HARDCOVER.id, 2]]);
    const $ = cheerio.load(await (await browser.request("/shopping-cart")).text());
    expect($("main").text()).toContain(cart.subtotal.formatted);
  });
});

describe("checkout: POST /service/commerce/address, order/promo-code and order/submit", () => {
  const ADDRESS = "/service/commerce/address";
  const PROMO = "/service/commerce/order/promo-code";
  const SUBMIT = "/service/commerce/order/submit";
  const SHIPPING = SHIPPING_ADDRESS;
  interface Review {
    email: string;
    address: typeof SHIPPING;
    shippingMethod: { id: string } | null;
    promo: { code: string; applied: boolean; message: string } | null;
    lines: Line[];
    totals: { subtotal: Money; discount: Money; tax: Money; shipping: Money; total: Money };
  }
  interface Placed {
    order: { id: string; number: string; status: string; total: Money; url: string };
    next: string;
  }
  let keys = 0;
  const newKey = () => `api-cart-key-${process.pid}-${Date.now()}-${++keys}`.padEnd(24, "x");

  async function confirmedGuest(items: unknown[] = [shipped(HARDCOVER.id, 2)]) {
    const client = guest();
    await add(client, items);
    const { body } = await expectAnswer<{ confirmed: boolean; review: Review | null }>(client, "POST", ADDRESS, ADDRESS, 200, {
      email: "ada.api@example.org",
      ...SHIPPING,
      shippingMethod: "standard",
    });
    return { client, body };
  }

  it("confirms a guest's details, applies a promo code and places the order once per key", async () => {
    const { client, body } = await confirmedGuest();
    expect(body.confirmed).toBe(true);
    const review = body.review!;
    expect(review).toMatchObject({ email: "ada.api@example.org", address: SHIPPING, shippingMethod: { id: "standard" }, promo: null });
    expect(review.totals.subtotal.cents).toBe(2 * HARDCOVER.price);
    expect(review.totals.total.cents).toBe(review.totals.subtotal.cents + review.totals.tax.cents + review.totals.shipping.cents);

    const promo = await expectAnswer<{ promo: { code: string; message: string; discount: Money }; review: Review }>(
      client,
      "POST",
      PROMO,
      PROMO,
      200,
      { promoCode: " welcome10 " },
    );
    expect(promo.body.promo).toEqual({
      code: "WELCOME10",
      message: "Promo code WELCOME10 applied: 10% off your order.",
      discount: { cents: 640, formatted: "$6.40" },
    });
    expect(promo.body.review.totals.discount.cents).toBe(640);
    const total = promo.body.review.totals.total.cents;

    // The review page shows the same total.
    const $ = await client.page("/review-order");
    expect($("main").text()).toContain(promo.body.review.totals.total.formatted);

    const key = newKey();
    const placed = await expectAnswer<Placed>(client, "POST", SUBMIT, SUBMIT, 201, { idempotencyKey: key, shownTotal: total });
    expect(placed.body.order).toMatchObject({ status: "pending_payment", total: { cents: total } });
    expect(placed.body.order.number).toMatch(/^MR-\d{6}-[0-9A-Z]{6}$/);
    expect(placed.body.next).not.toBe("");
    // The same key again: the same order, not a second one.
    const replay = await expectAnswer<Placed>(client, "POST", SUBMIT, SUBMIT, 200, { idempotencyKey: key, shownTotal: total });
    expect(replay.body.order.id).toBe(placed.body.order.id);
    // Another key for the same cart: that order is the one to pay.
    const other = await expectAnswer<ErrorBody & { next?: string }>(client, "POST", SUBMIT, SUBMIT, 409, {
      idempotencyKey: newKey(),
      shownTotal: total,
    });
    expect(other.body.code).toBe("already_ordered");
    expect(other.body.next).toBe(placed.body.order.url);
    // The order's page opens for this guest at the address given.
    const page = await client.request(placed.body.order.url);
    expect(page.status).toBe(200);
  });

  it("refuses what the shipping page refuses, with its messages, and keeps nothing unconfirmed", async () => {
    const client = guest();
    await add(client, [shipped(HARDCOVER.id)]);
    const bad = await expectAnswer<ErrorBody>(client, "POST", ADDRESS, ADDRESS, 400, {
      ...SHIPPING,
      postalCode: "",
      shippingMethod: "standard",
    });
    expect(bad.body.fields?.email).toEqual([REQUIRED]);
    expect(bad.body.fields?.postalCode).toBeDefined();
    const noMethod = await expectAnswer<ErrorBody>(client, "POST", ADDRESS, ADDRESS, 400, { email: "a@example.org", ...SHIPPING });
    expect(noMethod.body.fields).toEqual({ shippingMethod: ["Please choose a shipping method."] });

    const unknown = await expectAnswer<ErrorBody>(client, "POST", PROMO, PROMO, 400, { promoCode: "nope" });
    expect(unknown.body.fields).toEqual({ promoCode: ["We don't recognise the promo code NOPE. Please check it and try again."] });
    const expired = await expectAnswer<ErrorBody>(client, "POST", PROMO, PROMO, 400, { promoCode: "SUMMER24" });
    expect(expired.body.message).toBe("The promo code SUMMER24 has expired.");
    const cases = await expectAnswer<ErrorBody>(client, "POST", PROMO, PROMO, 400, { promoCode: "CASES25" });
    expect(cases.body.message).toBe(
      "The promo code CASES25 does not apply to the items in your cart. It applies to case study items only.",
    );

    // An empty code removes one: nothing to review yet, as the details are not confirmed.
    expect((await expectAnswer<unknown>(client, "POST", PROMO, PROMO, 200, { promoCode: "" })).body).toEqual({ promo: null, review: null });

    // Not confirmed: the order cannot be placed yet.
    const submit = await expectAnswer<ErrorBody>(client, "POST", SUBMIT, SUBMIT, 409, { idempotencyKey: newKey(), shownTotal: 1 });
    expect(submit.body.code).toBe("incomplete");
    const badKey = await expectAnswer<ErrorBody>(client, "POST", SUBMIT, SUBMIT, 400, { shownTotal: "x" });
    expect(Object.keys(badKey.body.fields ?? {}).sort()).toEqual(["idempotencyKey", "shownTotal"]);
  });

  it("places nothing at a total other than the one shown, or with a malformed key", async () => {
    const { client, body } = await confirmedGuest();
    const total = body.review!.totals.total.cents;
    const changed = await expectAnswer<ErrorBody>(client, "POST", SUBMIT, SUBMIT, 409, { idempotencyKey: newKey(), shownTotal: total - 1 });
    expect(changed.body.code).toBe("prices_changed");
    const short = await expectAnswer<ErrorBody>(client, "POST", SUBMIT, SUBMIT, 409, { idempotencyKey: "short", shownTotal: total });
    expect(short.body.message).toBe("This order form has expired. Please check your order below and place it again.");
    // Still nothing placed: a good submission makes the order now.
    await expectAnswer<Placed>(client, "POST", SUBMIT, SUBMIT, 201, { idempotencyKey: newKey(), shownTotal: total });
  });

  it("completes a free order at once", async () => {
    const { client, body } = await confirmedGuest([{ productId: EBOOK.id, type: "Digital" }]);
    expect(body.review!.shippingMethod).toBeNull();
    const promo = await expectAnswer<{ review: Review }>(client, "POST", PROMO, PROMO, 200, { promoCode: "EDITORS100" });
    expect(promo.body.review.totals.total.cents).toBe(0);
    const placed = await expectAnswer<Placed>(client, "POST", SUBMIT, SUBMIT, 201, { idempotencyKey: newKey(), shownTotal: 0 });
    expect(placed.body.order.status).toBe("paid");
    // Nothing to pay: the guest goes on to the offer of an account, as from the payment page.
    expect(placed.body.next).toMatch(/^\/registration-complete\?order=/);
  });

  it("answers an empty cart with 409 at each step", async () => {
    const client = guest();
    expect((await expectAnswer<ErrorBody>(client, "POST", ADDRESS, ADDRESS, 409, { ...SHIPPING })).body.code).toBe("empty_cart");
    expect((await expectAnswer<ErrorBody>(client, "POST", PROMO, PROMO, 409, { promoCode: "WELCOME10" })).body.code).toBe("empty_cart");
    expect(
      (await expectAnswer<ErrorBody>(client, "POST", SUBMIT, SUBMIT, 409, { idempotencyKey: newKey(), shownTotal: 0 })).body.code,
    ).toBe("empty_cart");
  });

  it("never uses another reader's saved address or order key", async () => {
    const owner = await reader();
    await add(owner, [shipped(HARDCOVER.id)]);
    const saved = await expectAnswer<{ review: Review }>(owner, "POST", ADDRESS, ADDRESS, 200, {
      ...SHIPPING,
      saveAddress: "on",
      shippingMethod: "standard",
    });
    const $ = await owner.page("/shipping-payment");
    const addressId = $("input[name=addressChoice]")
      .map((_, el) => $(el).attr("value"))
      .get()
      .find((v) => v !== "new");
    expect(addressId).toBeDefined();
    const key = newKey();
    const total = saved.body.review.totals.total.cents;
    const placed = await expectAnswer<Placed>(owner, "POST", SUBMIT, SUBMIT, 201, { idempotencyKey: key, shownTotal: total });

    const stranger = await reader();
    await add(stranger, [shipped(HARDCOVER.id)]);
    const theirs = await expectAnswer<ErrorBody>(stranger, "POST", ADDRESS, ADDRESS, 404, {
      addressChoice: addressId,
      shippingMethod: "standard",
    });
    expect(theirs.body.message).toBe("Please choose one of your addresses, or enter a new one.");
    // The owner's key gives the stranger nothing of the owner's order: as if there were no such key.
    const replay = await expectAnswer<ErrorBody>(stranger, "POST", SUBMIT, SUBMIT, 404, { idempotencyKey: key, shownTotal: total });
    expect(replay.body).toEqual({
      code: "not_found",
      message: "This order form was not found. Please check your order below and place it again.",
    });
    expect(JSON.stringify(replay.body)).not.toContain(placed.body.order.id);
    const shopper = guest();
    await add(shopper, [shipped(HARDCOVER.id)]);
    const byGuest = await expectAnswer<ErrorBody>(shopper, "POST", SUBMIT, SUBMIT, 404, { idempotencyKey: key, shownTotal: total });
    expect(byGuest.body.code).toBe("not_found");
    // The owner's order is as it was, and still theirs by that key.
    const again = await expectAnswer<Placed>(owner, "POST", SUBMIT, SUBMIT, 200, { idempotencyKey: key, shownTotal: total });
    expect(again.body.order).toEqual(placed.body.order);
    // The stranger's own details then work, and make their own order.
    await expectAnswer(stranger, "POST", ADDRESS, ADDRESS, 200, { ...SHIPPING, shippingMethod: "standard" });
    const own = await expectAnswer<Placed>(stranger, "POST", SUBMIT, SUBMIT, 201, { idempotencyKey: newKey(), shownTotal: total });
    expect(own.body.order.id).not.toBe(placed.body.order.id);
  });
});

describe("HEAD /service/commerce/shopping-cart", () => {
  const PATH = "/service/commerce/shopping-cart";
  const count = async (c: Reader) => {
    const { res } = await expectAnswer<undefined>(c, "HEAD", PATH, PATH, 200);
    expect(await res.text()).toBe("");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    return res.headers.get("X-Cart-Item-Count");
  };

  it("counts the items of a guest's cart by its cookie, as the header's mini cart does", async () => {
    const client = guest();
    expect(await count(client)).toBe("0");
    await add(client, [shipped(HARDCOVER.id, 2), { productId: EBOOK.id, type: "Digital" }]);
    expect(await count(client)).toBe("3");
    expect(Number(await count(client))).toBe((await getCart(client)).count);
    // Another browser has no cart.
    expect(await count(guest())).toBe("0");
  });

  it("counts a reader's cart by their session, which a guest never sees", async () => {
    const client = await reader();
    expect(await count(client)).toBe("0");
    await add(client, [shipped(HARDCOVER.id, 4)]);
    expect(await count(client)).toBe("4");
    expect(await count(guest())).toBe("0");
  });

  it("takes only HEAD: the cart itself is GET /api/shopping-cart", async () => {
    const res = await guest().request(PATH);
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("HEAD");
    expect(((await res.json()) as ErrorBody).code).toBe("method_not_allowed");
  });
});

describe("checkout: POST /service/commerce/shipping-payment and order/shipping-method", () => {
  const STEP = "/service/commerce/shipping-payment";
  const METHOD = "/service/commerce/order/shipping-method";
  interface Offered {
    id: string;
    name: string;
    delivery: string;
    price: Money;
  }
  interface Review {
    address: typeof SHIPPING_ADDRESS;
    shippingMethod: { id: string; name: string } | null;
    totals: { subtotal: Money; tax: Money; shipping: Money; total: Money };
  }
  interface StepBody {
    confirmed: boolean;
    next: string;
    review: Review | null;
    shippingMethods: Offered[];
  }
  interface MethodBody {
    shippingMethod: Offered;
    review: Review | null;
  }
  // Two hardcovers ($64.00, under the $75 of free standard shipping): first unit and one more.
  const STANDARD = 595 + 100;
  const EXPRESS = 1495 + 200;
  const INTERNATIONAL = 2495 + 500;
  const CHOOSE_SHIPPING = "Please choose a shipping method.";

  const step = <T = StepBody>(c: Reader, body: unknown, status = 200) => expectAnswer<T>(c, "POST", STEP, STEP, status, body);
  const choose = <T = MethodBody>(c: Reader, body: unknown, status = 200) => expectAnswer<T>(c, "POST", METHOD, METHOD, status, body);
  const reviewTotal = async (c: Reader) => {
    const $ = await c.page("/review-order");
    return Number($("input[name=shownTotal]").val());
  };

  async function shopper(items: unknown[] = [shipped(HARDCOVER.id, 2)]) {
    const client = guest();
    await add(client, items);
    return client;
  }

  it("confirms a guest's details and answers the review page's order, and the page shows the same", async () => {
    const client = await shopper();
    const { body } = await step(client, { email: "grace.api@example.org", ...SHIPPING_ADDRESS, shippingMethod: "standard" });
    expect(body).toMatchObject({ confirmed: true, next: "/review-order" });
    expect(body.shippingMethods.map((m) => [m.id, m.price.cents])).toEqual([
      ["standard", STANDARD],
      ["express", EXPRESS],
    ]);
    const review = body.review!;
    expect(review.address).toEqual(SHIPPING_ADDRESS);
    expect(review.shippingMethod).toMatchObject({ id: "standard", name: "Standard" });
    expect(review.totals.shipping.cents).toBe(STANDARD);
    expect(await reviewTotal(client)).toBe(review.totals.total.cents);
  });

  it("keeps what the page's Update button keeps, and answers the methods offered for the new country", async () => {
    const client = await shopper();
    const { body } = await step(client, { intent: "country", ...SHIPPING_ADDRESS, countryCode: "GB", state: "", postalCode: "SW1A 1AA" });
    expect(body).toEqual({
      confirmed: false,
      next: "/shipping-payment#address",
      review: null,
      shippingMethods: [{ id: "international", name: "International", delivery: "7 to 14 business days", price: money(INTERNATIONAL) }],
    });
    const $ = await client.page("/shipping-payment");
    expect($("[name=countryCode]").val()).toBe("GB");
    // Nothing ships in a digital-only cart: no methods to offer.
    const digital = await shopper([{ productId: EBOOK.id, type: "Digital" }]);
    expect((await step(digital, { email: "d@example.org", ...SHIPPING_ADDRESS })).body).toMatchObject({
      confirmed: true,
      shippingMethods: [],
    });
  });

  it("refuses what the shipping page refuses, with its messages, and confirms nothing", async () => {
    const client = await shopper();
    const missing = await step<ErrorBody>(client, { ...SHIPPING_ADDRESS, postalCode: "", shippingMethod: "standard" }, 400);
    expect(missing.body.fields).toMatchObject({ email: [REQUIRED], postalCode: [REQUIRED] });
    const wrongType = await step<ErrorBody>(client, { email: 42, ...SHIPPING_ADDRESS, intent: "pay" }, 400);
    expect(Object.keys(wrongType.body.fields ?? {}).sort()).toEqual(["email", "intent"]);
    const noMethod = await step<ErrorBody>(client, { email: "a@example.org", ...SHIPPING_ADDRESS, shippingMethod: "international" }, 400);
    expect(noMethod.body.fields).toEqual({ shippingMethod: [CHOOSE_SHIPPING] });
    const promo = await step<ErrorBody>(
      client,
      { email: "a@example.org", ...SHIPPING_ADDRESS, shippingMethod: "standard", promoCode: "nope" },
      400,
    );
    expect(promo.body.fields).toEqual({ promoCode: ["We don't recognise the promo code NOPE. Please check it and try again."] });
    // Nothing confirmed: the review page sends the shopper back.
    expect((await client.request("/review-order")).headers.get("location")).toBe("/shipping-payment");
    expect((await step<ErrorBody>(guest(), { ...SHIPPING_ADDRESS }, 409)).body.code).toBe("empty_cart");
  });

  it("changes the method of a confirmed checkout, and the review and order go with it", async () => {
    const client = await shopper();
    await step(client, { email: "ada.method@example.org", ...SHIPPING_ADDRESS, shippingMethod: "standard" });
    const { body } = await choose(client, { shippingMethod: "express" });
    expect(body.shippingMethod).toEqual({ id: "express", name: "Express", delivery: "2 business days", price: money(EXPRESS) });
    expect(body.review!.shippingMethod).toMatchObject({ id: "express" });
    expect(body.review!.totals.shipping.cents).toBe(EXPRESS);
    const total = body.review!.totals.total.cents;
    const $ = await client.page("/review-order");
    expect($("main").text()).toContain("Shipping method: Express (2 business days)");
    expect(Number($("input[name=shownTotal]").val())).toBe(total);
    const placed = await expectAnswer<{ order: { total: Money } }>(
      client,
      "POST",
      "/service/commerce/order/submit",
      "/service/commerce/order/submit",
      201,
      {
        idempotencyKey: `api-cart-method-${process.pid}-${Date.now()}`,
        shownTotal: total,
      },
    );
    expect(placed.body.order.total.cents).toBe(total);
  });

  it("offers the destination's methods only: before any address, those of the United States", async () => {
    const client = await shopper();
    const { body } = await choose(client, { shippingMethod: " standard " });
    expect(body).toEqual({
      shippingMethod: { id: "standard", name: "Standard", delivery: "5 to 7 business days", price: money(STANDARD) },
      review: null,
    });
    await step(client, { intent: "country", ...SHIPPING_ADDRESS, countryCode: "CA", state: "ON", postalCode: "K1A 0B1" });
    expect((await choose(client, { shippingMethod: "express" })).body.shippingMethod.id).toBe("express");
    expect((await choose<ErrorBody>(client, { shippingMethod: "international" }, 400)).body.fields).toEqual({
      shippingMethod: [CHOOSE_SHIPPING],
    });
  });

  it("refuses an unknown method or bad input with a field error, changing nothing", async () => {
    const client = await shopper();
    await step(client, { email: "bad.method@example.org", ...SHIPPING_ADDRESS, shippingMethod: "standard" });
    const total = await reviewTotal(client);
    for (const body of [{ shippingMethod: "teleport" }, {}, { shippingMethod: "" }])
      expect((await choose<ErrorBody>(client, body, 400)).body.fields, JSON.stringify(body)).toEqual({ shippingMethod: [CHOOSE_SHIPPING] });
    expect((await choose<ErrorBody>(client, { shippingMethod: ["standard", "express"] }, 400)).body.fields?.shippingMethod).toBeDefined();
    expect((await choose<ErrorBody>(client, { shippingMethod: "x".repeat(3000) }, 400)).body.fields?.shippingMethod).toEqual([
      "This field must be less than 2000 characters.",
    ]);
    expect(await reviewTotal(client)).toBe(total);
  });

  it("answers 409 when there is nothing to ship to", async () => {
    expect((await choose<ErrorBody>(guest(), { shippingMethod: "standard" }, 409)).body.code).toBe("empty_cart");
    const digital = await shopper([{ productId: EBOOK.id, type: "Digital" }]);
    expect((await choose<ErrorBody>(digital, { shippingMethod: "standard" }, 409)).body).toEqual({
      code: "nothing_to_ship",
      message: "Nothing in your cart ships, so there is no shipping method to choose.",
    });
  });

  it("never ships to another reader's saved address, or changes their checkout", async () => {
    const owner = await reader();
    await add(owner, [shipped(HARDCOVER.id, 2)]);
    await step(owner, { ...SHIPPING_ADDRESS, saveAddress: "on", shippingMethod: "standard" });
    const $ = await owner.page("/shipping-payment");
    const addressId = $("input[name=addressChoice]")
      .map((_, el) => $(el).attr("value"))
      .get()
      .find((v) => v !== "new")!;
    const ownerTotal = await reviewTotal(owner);

    const stranger = await reader();
    await add(stranger, [shipped(HARDCOVER.id, 2)]);
    const theirs = await step<ErrorBody>(stranger, { addressChoice: addressId, shippingMethod: "standard" }, 404);
    expect(theirs.body).toEqual({ code: "unknown_address", message: "Please choose one of your addresses, or enter a new one." });
    // Kept as typed by the Update button, the owner's address id still gives the stranger nowhere to ship.
    await step(stranger, { intent: "country", addressChoice: addressId });
    expect((await choose<ErrorBody>(stranger, { shippingMethod: "express" }, 409)).body.code).toBe("unknown_address");
    expect((await step(stranger, { intent: "country", addressChoice: addressId })).body.shippingMethods).toEqual([]);
    // A guest's choice is their own checkout's.
    await choose(await shopper(), { shippingMethod: "express" });

    const owners = await owner.page("/review-order");
    expect(owners("main").text()).toContain("Shipping method: Standard (5 to 7 business days)");
    expect(Number(owners("input[name=shownTotal]").val())).toBe(ownerTotal);
  });
});
