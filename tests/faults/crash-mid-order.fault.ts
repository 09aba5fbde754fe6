import * as cheerio from "cheerio";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connect } from "~/server/db/connection";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { addToCartForm, placeOrderForm, shippedItems } from "~/tests/helpers/checkout-flow";
import { freePort } from "~/tests/helpers/free-port";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

// The server is killed (SIGKILL: no drain, no cleanup) while shoppers are placing orders and
// paying, then started again on the same database. Whatever step each shopper was at, no order
// may be half-written, none charged twice, and every payment the provider took must end as
// exactly one paid order: the shopper who comes back to their order finds it paid.

const SHOPPERS = 8;
const ROUNDS = 6;
const KILLS = 3;
const WEBHOOK_SECRET = "crash-test-webhook-secret-0123456789abcdef";

/** A step that did not get the answer a working site gives: the server went away under it. */
class Interrupted extends Error {}

async function expectAnswer(res: Response, status: number, step: string): Promise<Response> {
  if (res.status === status) return res;
  if (res.status >= 500) throw new Interrupted(`${step}: ${res.status}`);
  throw new Error(`${step} answered ${res.status} (${res.headers.get("location") ?? ""}), expected ${status}`);
}

/** Pays at the sandbox's hosted page, or through the order page's link to it; ends on the order's page. */
async function payFrom(reader: Reader, location: string): Promise<void> {
  let checkout = new URL(location, reader.baseUrl);
  if (!checkout.pathname.startsWith("/sandbox-checkout/")) {
    // The cart had become an order already (placed before the crash): its page settles it with
    // the provider and, while it is unpaid, links to the payment page or opens it.
    const orderPath = checkout.pathname + checkout.search;
    const $ = cheerio.load(await (await expectAnswer(await reader.request(orderPath), 200, "GET order")).text());
    const link = $('a[href*="/sandbox-checkout/"]').attr("href");
    if (link) checkout = new URL(link, reader.baseUrl);
    else if ($('button[name="intent"][value="pay"]').length > 0) {
      const opened = await expectAnswer(await reader.request(orderPath, { form: { intent: "pay" } }), 303, "POST order intent=pay");
      checkout = new URL(opened.headers.get("location")!, reader.baseUrl);
    } else return; // paid
  }
  const paid = await expectAnswer(
    await reader.request(checkout.pathname, { form: { cardNumber: SANDBOX_CARDS.succeeds } }),
    303,
    "POST sandbox checkout",
  );
  const back = new URL(paid.headers.get("location")!, reader.baseUrl);
  await expectAnswer(await reader.request(back.pathname + back.search), 200, "GET order after payment");
}

/** Shipping, review and "place order" for what the cart holds: where the shopper is sent to pay, or null for an empty cart. */
async function placeOrder(reader: Reader): Promise<string | null> {
  const form = await placeOrderForm(reader, expectAnswer);
  if (form === null) return null;
  const placed = await expectAnswer(await reader.request("/review-order", { form }), 303, "POST /review-order");
  return placed.headers.get("location")!;
}

/** Orders and pays for what the cart holds; false when it held nothing. */
async function checkOut(reader: Reader): Promise<boolean> {
  const location = await placeOrder(reader);
  if (location === null) return false;
  await payFrom(reader, location);
  return true;
}

async function register(baseUrl: string, email: string): Promise<Reader> {
  const reader = new Reader(baseUrl);
  const res = await reader.request("/register", {
    form: { firstName: "Crash", lastName: "Shopper", emailAddress: email, password: "Lantern5!quay" },
  });
  await expectAnswer(res, 303, "POST /register");
  return reader;
}

describe(`a crash while shoppers order and pay (${dialectName})`, () => {
  it("leaves no half-written order, charges none twice, and ends every payment taken as exactly one paid order", async () => {
    const connection = await isolatedConnection("crash-order");
    const port = await freePort();
    const env = {
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      PAYMENT_PROVIDER: "sandbox",
      PAYMENT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RATE_LIMIT_PER_ACCOUNT: "100000",
    };
    let server: RunningServer = await startBuiltServer(env, "production", connection);
    const db = connect(connection);
    try {
      const items = await shippedItems(db);
      const add = (reader: Reader, n: number) => reader.request("/shopping-cart", { form: addToCartForm(items[n % items.length]!) });
      const emails = Array.from({ length: SHOPPERS }, (_, n) => `crash${n}.${process.pid}@example.org`);
      const shoppers = await Promise.all(emails.map((email) => register(server.url, email)));
      const paidOrders = async (email: string) =>
        Number(
          (
            await db
              .selectFrom("store_order")
              .select((eb) => eb.fn.countAll().as("n"))
              .where("email", "=", email)
              .where("status", "=", "paid")
              .executeTakeFirstOrThrow()
          ).n,
        );

      // Each shopper buys ROUNDS things, one after another. Each time the server is gone, they
      // wait for it to come back and go on from wherever their cart is; the database says how far
      // they got. The server is killed KILLS times, each after another SHOPPERS purchases.
      let kills = 0;
      /** Steps a crash cut off. */
      let cutOff = 0;
      let purchases = 0;
      let nextKillAt = SHOPPERS;
      let crashNow!: () => void;
      let crash = new Promise<void>((resolve) => (crashNow = resolve));
      let serverBack = Promise.resolve();
      const shop = async (reader: Reader, n: number) => {
        let interruptions = 0;
        for (let k = 0; (await paidOrders(emails[n]!)) < ROUNDS;) {
          try {
            // After a crash the cart may hold an order placed, or paid, before it.
            if (await checkOut(reader)) continue;
            await expectAnswer(await add(reader, n + k++), 303, "POST /shopping-cart");
            expect(await checkOut(reader)).toBe(true);
            if (++purchases === nextKillAt) crashNow();
          } catch (error) {
            const serverGone =
              error instanceof Interrupted || (error instanceof TypeError && /^(fetch failed|terminated)$/.test(error.message));
            if (kills === 0 || !serverGone || ++interruptions > 2 * KILLS) throw error;
            cutOff += 1;
            await serverBack;
          }
        }
      };
      const shopping = Promise.all(shoppers.map((reader, n) => shop(reader, n)));

      for (let k = 0; k < KILLS; k++) {
        // Killed while the shoppers are at every step of their purchases.
        await Promise.race([crash, shopping]);
        let back!: () => void;
        serverBack = new Promise<void>((resolve) => (back = resolve));
        kills += 1;
        server.child.kill("SIGKILL");
        await new Promise((resolve) => server.child.once("exit", resolve));
        server = await startBuiltServer(env, "production", connection);
        crash = new Promise<void>((resolve) => (crashNow = resolve));
        nextKillAt = purchases + SHOPPERS;
        back();
      }
      await shopping;
      expect(cutOff).toBeGreaterThan(0);
      for (const email of emails) expect(await paidOrders(email)).toBe(ROUNDS);

      // A payment the provider took while nobody heard its callback (the server was down): the
      // buyer's order page asks the provider and settles it, once, however often it is opened.
      const buyer = shoppers[0]!;
      await expectAnswer(await add(buyer, 99), 303, "POST /shopping-cart");
      const sessionId = new URL((await placeOrder(buyer))!, buyer.baseUrl).pathname.split("/").pop()!;
      const provider = createSandboxProvider(db, { siteUrl: server.url, webhookSecret: WEBHOOK_SECRET });
      expect((await provider.pay(sessionId, SANDBOX_CARDS.succeeds)).ok).toBe(true);
      const { reference } = (await provider.payment(sessionId))!;
      const status = async () =>
        (await db.selectFrom("store_order").select("status").where("id", "=", reference).executeTakeFirstOrThrow()).status;
      expect(await status()).toBe("pending_payment");
      await Promise.all([1, 2, 3].map(() => buyer.request(`/order/${reference}`).then((res) => expectAnswer(res, 200, "GET order"))));
      expect(await status()).toBe("paid");
      expect(await checkOut(buyer)).toBe(false);

      // What the database holds.
      const orders = await db.selectFrom("store_order").select(["id", "status", "total_cents", "user_id"]).execute();
      const payments = await db
        .selectFrom("sandbox_payment")
        .select(["reference", "status", "amount_cents"])
        .where("reference", "like", "ord_%")
        .execute();
      const orderLines = await db
        .selectFrom("store_order_line")
        .select(["order_id", sql<number>`sum(line_total_cents)`.as("lines")])
        .groupBy("order_id")
        .execute();
      const linesOf = new Map(orderLines.map((l) => [l.order_id, Number(l.lines)]));
      // No half-written order: every order has its lines.
      expect(orders.filter((o) => !linesOf.has(o.id))).toEqual([]);
      // No order charged twice.
      const paidPayments = payments.filter((p) => p.status === "paid");
      expect(new Set(paidPayments.map((p) => p.reference)).size).toBe(paidPayments.length);
      // Every payment taken is exactly one paid order, of the amount taken, and every paid order was paid for.
      const byId = new Map(orders.map((o) => [o.id, o]));
      expect(
        paidPayments.filter((p) => byId.get(p.reference)?.status !== "paid" || byId.get(p.reference)?.total_cents !== p.amount_cents),
      ).toEqual([]);
      const paid = orders.filter((o) => o.status === "paid");
      expect(paid.map((o) => o.id).sort()).toEqual(paidPayments.map((p) => p.reference).sort());
      expect(paid.length).toBe(SHOPPERS * ROUNDS + 1);
      console.log(
        `${KILLS} SIGKILLs during ${SHOPPERS} shoppers' orders: ${cutOff} steps cut off; ${orders.length} orders, ${paid.length} paid, ` +
          `${paidPayments.length} payments taken, 0 half-written, 0 charged twice`,
      );
    } finally {
      await db.destroy();
      await server.stop();
      await connection.drop();
    }
  }, 300_000);
});
