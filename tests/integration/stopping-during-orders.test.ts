import http from "node:http";
import { once } from "node:events";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { connect } from "~/server/db/connection";
import { addToCartForm, placeOrderForm, shippedItems, type AnswerCheck } from "~/tests/helpers/checkout-flow";
import { registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer } from "~/tests/helpers/server";
import { heldFormPost, sigterm } from "~/tests/helpers/stopping";
import { isolatedConnection } from "~/tests/helpers/test-db";

// SIGTERM while a shopper's order is on its way in, and while browsers hold keep-alive
// connections: the order is placed and answered, that answer closes its connection, the idle
// connection is closed, nothing new is accepted, and the server exits 0.

const check: AnswerCheck = async (res, status, step) => {
  expect(res.status, step).toBe(status);
  return res;
};

/** A server on a database of its own, and a signed-in shopper at the "place order" form with one item in the cart. */
async function shopperAtReview(label: string, env: Record<string, string>) {
  const connection = await isolatedConnection(label);
  const server = await startBuiltServer({ PAYMENT_PROVIDER: "sandbox", ...env }, "production", connection);
  const db = connect(connection);
  const shopper = await registeredReader(server.url);
  const [item] = await shippedItems(db);
  await check(await shopper.request("/shopping-cart", { form: addToCartForm(item!) }), 303, "POST /shopping-cart");
  const place = (await placeOrderForm(shopper, check))!;
  const close = async () => {
    await db.destroy();
    await server.stop();
    await connection.drop();
  };
  return { server, db, shopper, place, close };
}

describe("stopping while an order is submitted", () => {
  it("places the order in flight, answers it with Connection: close, closes idle keep-alive connections and exits 0", async () => {
    const { server, db, shopper, place, close } = await shopperAtReview("stop-order", { SHUTDOWN_GRACE_SECONDS: "60" });
    try {
      const cookie = shopper.cookie("mr_session");
      expect(cookie).toBeDefined();

      const { hostname, port } = new URL(server.url);
      // Two browsers' keep-alive connections: one left idle, one carrying the order.
      const [browser, shopping] = [new http.Agent({ keepAlive: true }), new http.Agent({ keepAlive: true })];
      // A browser's idle keep-alive connection: one request answered, the socket kept.
      const idle = await new Promise<Socket>((resolve, reject) => {
        const req = http.get({ hostname, port, path: "/healthz", agent: browser }, (res) => {
          res.resume();
          res.once("end", () => resolve(req.socket!));
        });
        req.once("error", reject);
      });
      const idleClosed = once(idle, "close");

      // The order submit, in flight when the signal comes.
      const submit = await heldFormPost(server.url, "/review-order", place, {
        agent: shopping,
        headers: { Cookie: `mr_session=${cookie}` },
      });
      const { exited } = await sigterm(server);
      await idleClosed;

      const res = await submit.send();
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/\/sandbox-checkout\/sbx_/);
      expect(res.headers.connection).toBe("close");

      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      browser.destroy();
      shopping.destroy();
      const orders = await db
        .selectFrom("store_order")
        .select(["status", "provider_session_id"])
        .where("idempotency_key", "=", place.idempotencyKey!)
        .execute();
      expect(orders).toHaveLength(1);
      expect(orders[0]!.status).toBe("pending_payment");
      expect(res.headers.location).toContain(orders[0]!.provider_session_id!);
    } finally {
      await close();
    }
  }, 120_000);

  it("offers Pay for this order on an order whose payment page was being opened when the server died, and opens it", async () => {
    const { db, shopper, place, close } = await shopperAtReview("stranded-order", {});
    try {
      await check(await shopper.request("/review-order", { form: place }), 303, "POST /review-order");
      // What a crash between claiming the order for the provider and recording its page leaves.
      const order = await db
        .selectFrom("store_order")
        .select("id")
        .where("idempotency_key", "=", place.idempotencyKey!)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("store_order")
        .set({ provider_session_id: null, provider_checkout_url: null })
        .where("id", "=", order.id)
        .execute();

      const $ = await shopper.page(`/order/${order.id}`);
      const pay = $('button[name="intent"][value="pay"]');
      expect(pay.text()).toBe("Pay for this order");
      const opened = await check(await shopper.request(`/order/${order.id}`, { form: { intent: "pay" } }), 303, "POST intent=pay");
      const session = new URL(opened.headers.get("location")!).pathname.split("/").pop()!;
      // The provider's session opened before the crash, found again: still one per order.
      const sessions = await db.selectFrom("sandbox_payment").select("id").where("reference", "=", order.id).execute();
      expect(sessions).toEqual([{ id: session }]);
      expect((await shopper.page(`/order/${order.id}`))(`a[href$="/sandbox-checkout/${session}"]`).text()).toBe("Pay for this order");
    } finally {
      await close();
    }
  }, 120_000);
});
