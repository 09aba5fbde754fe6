import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createApiKey, revokeApiKey } from "~/server/desk/api-keys";
import { COMMAND_LINE } from "~/server/desk/audit";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { markOrderPaid } from "~/server/store/order-payment";
import { ApiContract } from "~/tests/helpers/api-contract";
import { deskPeople, STAFF_PASSWORD } from "~/tests/helpers/desk-staff";
import { Reader, subscribe } from "~/tests/helpers/reader";
import { noonAround } from "~/tests/helpers/seed-dates";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The Admin API's operations (ADR 088) through the production build, against its published
// document: finding readers and what a tool sees of one (no secrets), unlocking (audited, mailed,
// the reader signs in), the order list's filters, dispatch with tracking (the buyer's mail with
// the link), refunds of a line and of the rest and then 409, replays with an Idempotency-Key, and
// the canonical errors for keys, roles and bad input.

let connection: IsolatedConnection;
let db: Database;
let server: RunningServer;
let contract: ApiContract;
let pick: Awaited<ReturnType<typeof availabilities>>;
const keys = { service: "", store: "", editor: "", revoked: "" };
const keyIds = { service: "", store: "" };

beforeAll(async () => {
  connection = await isolatedConnection("desk-operations-api");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  contract = await ApiContract.load(server.url);
  pick = await availabilities(db);
  const now = new Date();
  const service = await createApiKey(db, COMMAND_LINE, "Helpdesk", ["service"], now);
  const store = await createApiKey(db, COMMAND_LINE, "Warehouse", ["store"], now);
  const editor = await createApiKey(db, COMMAND_LINE, "Newsroom", ["editor"], now);
  const revoked = await createApiKey(db, COMMAND_LINE, "Retired", ["admin"], now);
  await revokeApiKey(db, COMMAND_LINE, revoked.apiKey.id, now);
  Object.assign(keys, { service: service.key, store: store.key, editor: editor.key, revoked: revoked.key });
  Object.assign(keyIds, { service: service.apiKey.id, store: store.apiKey.id });
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

/** A call of the Admin API with a key (or none), checked against the document under its documented path. */
async function call<T = Record<string, unknown>>(
  key: string | null,
  method: string,
  documented: string,
  options: { path?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (key) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined || options.rawBody !== undefined) {
    headers["Content-Type"] = "application/json";
    body = options.rawBody ?? JSON.stringify(options.body);
  }
  const res = await fetch(`${server.url}${options.path ?? documented}`, { method, headers, body });
  const json = ((await contract.check(documented, method.toLowerCase(), res)) ?? {}) as T;
  return { status: res.status, json };
}

type ApiError = { code: string; message: string; fields?: Record<string, string[]> };

/** The mail the server wrote to its outbox for an address, decoded as the message is sent. */
const mailsTo = (email: string, subject: string) => {
  const dir = path.join(connection.dataDir, "mail");
  return (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .map((f) =>
      fs
        .readFileSync(path.join(dir, f), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=")
        // Long headers are folded onto the next line.
        .replace(/\r?\n[ \t]+/g, " "),
    )
    .filter((m) => m.includes(`To: ${email}`) && m.includes(subject));
};

const auditRows = (action: string, subject: string) =>
  db.selectFrom("desk_audit").select(["actor", "actor_id", "after"]).where("action", "=", action).where("subject", "=", subject).execute();

/** A guest's order of a hardcover and an ebook, paid at the sandbox as the checkout leaves it. */
async function paidOrder(email = `buyer.${Date.now()}.${Math.random().toString(36).slice(2)}@example.org`, userId: string | null = null) {
  const order = await insertOrder(db, {
    userId,
    email,
    status: "pending_payment",
    createdAt: new Date().toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
  });
  const sandbox = createSandboxProvider(db, { siteUrl: server.url, webhookSecret: "unused" });
  const { total_cents } = await db.selectFrom("store_order").select("total_cents").where("id", "=", order.id).executeTakeFirstOrThrow();
  const session = await sandbox.createCheckout({
    reference: order.id,
    description: order.number,
    amountCents: total_cents,
    currency: "usd",
    customerEmail: email,
    successUrl: `${server.url}/ok`,
    cancelUrl: `${server.url}/no`,
  });
  await db.updateTable("store_order").set({ provider: "sandbox", provider_session_id: session.id }).where("id", "=", order.id).execute();
  await sandbox.pay(session.id, SANDBOX_CARDS.succeeds);
  await markOrderPaid(db, order.id);
  const lines = await db.selectFrom("store_order_line").select(["position", "line_total_cents"]).where("order_id", "=", order.id).execute();
  return {
    ...order,
    email,
    totalCents: total_cents,
    sessionId: session.id,
    ebookCents: lines.find((l) => l.position === 2)!.line_total_cents,
  };
}

const sandboxRefunded = async (sessionId: string) =>
  (await db.selectFrom("sandbox_refund").select("amount_cents").where("payment_id", "=", sessionId).execute()).reduce(
    (n, r) => n + r.amount_cents,
    0,
  );

const signIn = (email: string, password = STAFF_PASSWORD) =>
  new Reader(server.url).request("/sign-in", { form: { username: email, password, redirectTo: "/" } });

describe(`the Admin API's readers (${dialectName})`, () => {
  it("finds readers as the desk does, and shows one as a support agent sees them: never a password hash, session, token or card number", async () => {
    const { reader, email } = await deskPeople(server.url, db).signedInReader("Nell");
    await subscribe(reader);
    await reader.request("/forgot-password", { form: { emailAddress: email } });
    const { id } = await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const order = await paidOrder(email, id);

    const found = await call<{ page: number; total: number; items: { id: string; matched: string }[] }>(
      keys.service,
      "GET",
      "/desk/api/readers",
      {
        path: `/desk/api/readers?q=${encodeURIComponent(email.toUpperCase())}`,
      },
    );
    expect(found.status).toBe(200);
    expect(found.json.items).toEqual([expect.objectContaining({ id, matched: "email" })]);
    const byOrder = await call<{ items: { id: string; matched: string }[] }>(keys.service, "GET", "/desk/api/readers", {
      path: `/desk/api/readers?q=${order.number.toLowerCase()}`,
    });
    expect(byOrder.json.items).toEqual([expect.objectContaining({ id, matched: "order" })]);
    const past = await call<{ page: number; items: unknown[] }>(keys.service, "GET", "/desk/api/readers", {
      path: `/desk/api/readers?q=${encodeURIComponent(email)}&page=7`,
    });
    expect([past.json.page, past.json.items]).toEqual([7, []]);

    const res = await fetch(`${server.url}/desk/api/readers/${id}`, { headers: { Authorization: `Bearer ${keys.service}` } });
    const text = await res.clone().text();
    const overview = (await contract.check("/desk/api/readers/{id}", "get", res)) as {
      email: string;
      subscriptions: { card: { brand: string | null; last4: string } | null }[];
      orders: { number: string }[];
      mail: { subject: string }[];
    };
    expect(overview.email).toBe(email);
    expect(overview.subscriptions[0]!.card).toEqual({ brand: expect.any(String), last4: "4242" });
    expect(overview.orders.map((o) => o.number)).toEqual([order.number]);
    expect(overview.mail.map((m) => m.subject)).toContain("Reset your Meridian Review password");
    const user = await db.selectFrom("app_user").select("password_hash").where("id", "=", id).executeTakeFirstOrThrow();
    const sessions = await db.selectFrom("user_session").select("id_hash").where("user_id", "=", id).execute();
    const resets = await db.selectFrom("password_reset").select("token_hash").where("user_id", "=", id).execute();
    expect(sessions.length * resets.length).toBeGreaterThan(0);
    for (const secret of [user.password_hash, ...sessions.map((s) => s.id_hash), ...resets.map((r) => r.token_hash), order.accessToken])
      expect(text).not.toContain(secret);
    for (const pair of reader.cookieHeader().split("; ")) expect(text).not.toContain(pair.slice(pair.indexOf("=") + 1));
    expect(text).not.toMatch(/4242 ?4242 ?4242 ?4242|\$argon2|"\w*(password|token|session|hash)\w*"/i);

    expect(
      (await call<ApiError>(keys.service, "GET", "/desk/api/readers/{id}", { path: "/desk/api/readers/no-such-reader" })).json.code,
    ).toBe("not_found");
    for (const [query, field] of [
      ["", "q"],
      ["q=%20", "q"],
      [`q=${"x".repeat(201)}`, "q"],
      ["q=a&page=0", "page"],
      ["q=a&sort=name", "form"],
    ] as const) {
      const bad = await call<ApiError>(keys.service, "GET", "/desk/api/readers", { path: `/desk/api/readers?${query}` });
      expect([bad.status, bad.json.code, Object.keys(bad.json.fields ?? {})], query).toEqual([400, "invalid_input", [field]]);
    }
  });

  it("unlocks a locked-out reader with a reason, audited under the key and mailed; the reader signs in; a key sent again changes nothing", async () => {
    const { email } = await deskPeople(server.url, db).signedInReader("Locked");
    const { id } = await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    for (let i = 0; i < 5; i++) await signIn(email, "Wrong-password-1");
    expect((await signIn(email)).status).toBe(423);
    const documented = "/desk/api/readers/{id}/unlock";
    const where = `/desk/api/readers/${id}/unlock`;

    const noReason = await call<ApiError>(keys.service, "POST", documented, { path: where, body: { reason: "  " } });
    expect([noReason.status, noReason.json.fields]).toEqual([400, { reason: ["Give a reason: it goes into the audit log."] }]);
    expect((await call<ApiError>(keys.store, "POST", documented, { path: where, body: { reason: "x" } })).json.code).toBe("forbidden");
    expect((await signIn(email)).status).toBe(423);

    const once = { "Idempotency-Key": "8d0c6a8e-unlock-1" };
    const unlocked = await call<{ signIn: unknown }>(keys.service, "POST", documented, {
      path: where,
      body: { reason: "Caller confirmed their postcode" },
      headers: once,
    });
    expect([unlocked.status, unlocked.json.signIn]).toEqual([200, null]);
    const again = await call<{ signIn: unknown }>(keys.service, "POST", documented, {
      path: where,
      body: { reason: "Sent twice" },
      headers: once,
    });
    expect(again.status).toBe(200);
    const rows = await auditRows("reader.unlock", `reader:${email}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor).toMatch(/^API key Helpdesk \(/);
    expect(rows[0]!.actor_id).toBe(keyIds.service);
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ reason: "Caller confirmed their postcode" });
    expect(mailsTo(email, "Subject: Your Meridian Review account is unlocked")).toHaveLength(1);

    expect((await signIn(email)).status).toBe(303);
    const nothing = await call<ApiError>(keys.service, "POST", documented, { path: where, body: { reason: "Again" } });
    expect([nothing.status, nothing.json.code, nothing.json.message]).toEqual([
      409,
      "wrong_state",
      "This account is not locked and has no failed sign-ins to clear.",
    ]);
    expect(
      (await call<ApiError>(keys.service, "POST", documented, { path: "/desk/api/readers/nobody/unlock", body: { reason: "x" } })).status,
    ).toBe(404);
  });
});

type OrderAnswer = {
  number: string;
  stage: string;
  refundState: string;
  refundedCents: number;
  lines: { position: number; refundable: number; dispatchable: boolean }[];
  shipments: { id: string }[];
};

describe(`the Admin API's orders (${dialectName})`, () => {
  it("lists orders by status and days, and shows one by its number", async () => {
    const order = await paidOrder();
    const day = new Date().toISOString().slice(0, 10);
    const list = async (query: string) =>
      (
        await call<{ total: number; items: { number: string; stage: string }[] }>(keys.service, "GET", "/desk/api/orders", {
          path: `/desk/api/orders?${query}`,
        })
      ).json;
    const paid = await list(`status=paid&from=${day}&to=${day}`);
    expect(paid.items.find((i) => i.number === order.number)).toMatchObject({ stage: "paid", refundState: "none", email: order.email });
    expect((await list(`status=refunded&from=${day}`)).items.map((i) => i.number)).not.toContain(order.number);
    expect((await list("from=2001-01-01&to=2001-01-02")).total).toBe(0);

    const one = await call<OrderAnswer>(keys.store, "GET", "/desk/api/orders/{id}", {
      path: `/desk/api/orders/${order.number.toLowerCase()}`,
    });
    expect(one.json).toMatchObject({ number: order.number, stage: "paid", refundState: "none" });
    expect(one.json.lines.map((l) => [l.position, l.dispatchable, l.refundable])).toEqual([
      [1, true, 1],
      [2, false, 1],
    ]);
    expect((await call<ApiError>(keys.store, "GET", "/desk/api/orders/{id}", { path: "/desk/api/orders/NO-SUCH-ORDER" })).json.code).toBe(
      "not_found",
    );

    for (const [query, field] of [
      ["status=lost", "status"],
      ["from=yesterday", "from"],
      ["from=2026-02-30", "from"],
      ["from=2026-05-02&to=2026-05-01", "to"],
      ["state=paid", "form"],
    ] as const) {
      const bad = await call<ApiError>(keys.store, "GET", "/desk/api/orders", { path: `/desk/api/orders?${query}` });
      expect([bad.status, bad.json.code, Object.keys(bad.json.fields ?? {})], query).toEqual([400, "invalid_input", [field]]);
    }
    expect((await call<ApiError>(keys.store, "GET", "/desk/api/orders/{id}", { path: "/desk/api/orders/bad!number" })).status).toBe(400);
  });

  it("gives each line its pre-order state: null for an ordinary line; date, policy, charge and release for a pre-order", async () => {
    const paidAt = "2026-11-20T15:00:00.000Z";
    // The seed's coming-soon hardcover and ebook: line 2 ships, line 3 downloads.
    const soon = await db
      .selectFrom("product_availability")
      .select(["id", "available_date"])
      .where("status", "=", "F")
      .where("code", "in", ["HBK", "KND"])
      .orderBy("id")
      .limit(2)
      .execute();
    expect(soon.map((a) => a.available_date)).not.toContain(null);
    const order = await insertOrder(db, {
      userId: null,
      email: `preorder.${Date.now()}@example.org`,
      status: "paid",
      createdAt: paidAt,
      lines: [{ availabilityId: pick.hardcover.id }, ...soon.map((a) => ({ availabilityId: a.id }))],
    });
    // Line 2 is charged on its date (the checkout gave it its share), line 3 was charged with the order.
    const line = (position: number) => db.updateTable("store_order_line").where("order_id", "=", order.id).where("position", "=", position);
    await line(2).set({ charge_cents: 3400 }).execute();
    const preorders = async () =>
      (
        await call<{ lines: { position: number; dispatchable: boolean; preorder: unknown }[] }>(
          keys.store,
          "GET",
          "/desk/api/orders/{id}",
          {
            path: `/desk/api/orders/${order.number}`,
          },
        )
      ).json.lines.map((l) => [l.position, l.dispatchable, l.preorder]);
    const waiting = (position: 2 | 3) => ({
      status: "awaiting-date",
      availableDate: soon[position - 2]!.available_date,
      chargeFailedAt: null,
      releasedAt: null,
    });
    const onShip = { chargePolicy: "ship", chargeCents: 3400 };
    const withOrder = { chargePolicy: "payment", chargeCents: null, chargedAt: paidAt };

    expect(await preorders()).toEqual([
      [1, true, null],
      [2, false, { ...waiting(2), ...onShip, chargedAt: null }],
      [3, false, { ...waiting(3), ...withOrder }],
    ]);

    // The round on the date, as server/store/preorders.ts marks the lines: line 2 charged, both released.
    const onTheDate = noonAround(soon[0]!.available_date!).dayAfter.toISOString();
    await line(2).set({ charge_id: "ch_preorder", charged_at: onTheDate, released_at: onTheDate }).execute();
    await line(3).set({ released_at: onTheDate }).execute();
    expect((await preorders()).slice(1)).toEqual([
      [2, true, { ...waiting(2), ...onShip, status: "released", chargedAt: onTheDate, releasedAt: onTheDate }],
      [3, false, { ...waiting(3), ...withOrder, status: "released", releasedAt: onTheDate }],
    ]);

    // Had line 2's card been declined on the date: it waits, not dispatchable, nothing charged.
    await line(2).set({ charge_id: null, charged_at: null, released_at: null, charge_failed_at: onTheDate }).execute();
    expect((await preorders())[1]).toEqual([
      2,
      false,
      { ...waiting(2), ...onShip, status: "charge-failed", chargedAt: null, chargeFailedAt: onTheDate },
    ]);
  });

  it("dispatches lines with tracking and mails the buyer the link, once per Idempotency-Key; refuses what cannot go", async () => {
    const order = await paidOrder();
    const documented = "/desk/api/orders/{id}/fulfilments";
    const where = `/desk/api/orders/${order.number}/fulfilments`;
    const parcel = { lines: [1], carrier: "UPS", trackingNumber: "1Z999AA10123456784" };

    expect((await call<ApiError>(keys.service, "POST", documented, { path: where, body: parcel })).json.code).toBe("forbidden");
    const ebook = await call<ApiError>(keys.store, "POST", documented, { path: where, body: { ...parcel, lines: [2] } });
    expect([ebook.status, ebook.json.fields]).toEqual([400, { lines: ["Choose lines that go by post and have not been refunded."] }]);

    const once = { "Idempotency-Key": "dispatch-0001" };
    const shipped = await call<{ shipment: { id: string; carrier: string; trackingUrl: string; lines: number[] }; order: OrderAnswer }>(
      keys.store,
      "POST",
      documented,
      { path: where, body: parcel, headers: once },
    );
    expect(shipped.status).toBe(201);
    expect(shipped.json.shipment).toMatchObject({
      carrier: "ups",
      lines: [1],
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    });
    expect(shipped.json.order.stage).toBe("fulfilled");
    const mail = mailsTo(order.email, `Subject: Your Meridian Review order ${order.number} has been dispatched`);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain("Track your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784");

    const replay = await call<{ shipment: { id: string } }>(keys.store, "POST", documented, { path: where, body: parcel, headers: once });
    expect([replay.status, replay.json.shipment.id]).toEqual([200, shipped.json.shipment.id]);
    const twice = await call<ApiError & { current: OrderAnswer; by: string }>(keys.store, "POST", documented, {
      path: where,
      body: parcel,
    });
    expect([twice.status, twice.json.code, twice.json.current.shipments.length, twice.json.by]).toEqual([
      409,
      "conflict",
      1,
      expect.stringMatching(/^API key Warehouse/),
    ]);
    expect(mailsTo(order.email, "has been dispatched")).toHaveLength(1);
    expect(await auditRows("order.fulfil", `order:${order.number}`)).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(/^API key Warehouse \(/), actor_id: keyIds.store }),
    ]);

    const unpaid = await insertOrder(db, {
      userId: null,
      email: order.email,
      status: "pending_payment",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.hardcover.id }],
    });
    const notPaid = await call<ApiError>(keys.store, "POST", documented, {
      path: `/desk/api/orders/${unpaid.number}/fulfilments`,
      body: parcel,
    });
    expect([notPaid.status, notPaid.json.code]).toEqual([409, "wrong_state"]);
  });

  it("refunds one line, then the rest, never twice for one Idempotency-Key, then answers 409 conflict", async () => {
    const order = await paidOrder();
    const documented = "/desk/api/orders/{id}/refunds";
    const where = `/desk/api/orders/${order.number}/refunds`;
    type Refunded = { refund: { id: string; amountCents: number; status: string; creditNote: string; kind: string }; order: OrderAnswer };

    const once = { "Idempotency-Key": "refund-ebook-0001" };
    const line = await call<Refunded>(keys.service, "POST", documented, {
      path: where,
      body: { lines: [{ position: 2, quantity: 1 }], reason: "Bought twice" },
      headers: once,
    });
    expect(line.status).toBe(201);
    expect(line.json.refund).toMatchObject({
      kind: "lines",
      status: "succeeded",
      amountCents: order.ebookCents,
      creditNote: expect.stringMatching(/^CN-\d{6}$/),
    });
    expect(line.json.order.refundState).toBe("partly-refunded");
    const replay = await call<Refunded>(keys.service, "POST", documented, {
      path: where,
      body: { lines: [{ position: 2, quantity: 1 }], reason: "Bought twice" },
      headers: once,
    });
    expect([replay.status, replay.json.refund.id]).toEqual([200, line.json.refund.id]);
    expect(await sandboxRefunded(order.sessionId)).toBe(order.ebookCents);
    const receipt = mailsTo(order.email, `Subject: Your Meridian Review refund for order ${order.number}`);
    expect(receipt).toHaveLength(1);
    expect(receipt[0]).toContain(`Credit note: ${line.json.refund.creditNote}`);
    expect(receipt[0]).toContain("application/pdf");

    const tooMany = await call<ApiError>(keys.service, "POST", documented, {
      path: where,
      body: { lines: [{ position: 2, quantity: 1 }], reason: "Again" },
    });
    expect([tooMany.status, tooMany.json.fields]).toEqual([400, { lines: ["Refund at most what is left of each line."] }]);

    const rest = await call<Refunded>(keys.store, "POST", documented, { path: where, body: { reason: "Returned the parcel" } });
    expect(rest.status).toBe(201);
    expect(rest.json.refund).toMatchObject({ kind: "order", amountCents: order.totalCents - order.ebookCents });
    expect([rest.json.order.refundState, rest.json.order.refundedCents]).toEqual(["refunded", order.totalCents]);
    expect(await sandboxRefunded(order.sessionId)).toBe(order.totalCents);

    for (const body of [{ reason: "Once more" }, { lines: [{ position: 1, quantity: 1 }], reason: "Once more" }]) {
      const nothing = await call<ApiError & { current: OrderAnswer; by: string }>(keys.service, "POST", documented, { path: where, body });
      expect([nothing.status, nothing.json.code, nothing.json.message, nothing.json.current.refundState]).toEqual([
        409,
        "conflict",
        "Everything paid for this order has been refunded already.",
        "refunded",
      ]);
    }
    expect(await sandboxRefunded(order.sessionId)).toBe(order.totalCents);
    const rows = await auditRows("order.refund", `order:${order.number}`);
    expect(rows.map((r) => JSON.parse(r.after!).reason)).toEqual(["Bought twice", "Returned the parcel"]);
    expect(rows.map((r) => r.actor_id)).toEqual([keyIds.service, keyIds.store]);
  });
});

describe("the operations' keys, roles and input", () => {
  const operations: [string, string, string, unknown][] = [
    ["GET", "/desk/api/readers", "/desk/api/readers?q=a", undefined],
    ["GET", "/desk/api/readers/{id}", "/desk/api/readers/abc", undefined],
    ["POST", "/desk/api/readers/{id}/unlock", "/desk/api/readers/abc/unlock", { reason: "x" }],
    ["GET", "/desk/api/orders", "/desk/api/orders", undefined],
    ["GET", "/desk/api/orders/{id}", "/desk/api/orders/MR1", undefined],
    ["POST", "/desk/api/orders/{id}/fulfilments", "/desk/api/orders/MR1/fulfilments", { lines: [1], carrier: "ups", trackingNumber: "1Z" }],
    ["POST", "/desk/api/orders/{id}/refunds", "/desk/api/orders/MR1/refunds", { reason: "x" }],
  ];

  it("answers 401 without a live key and 403 for roles without the desk's action", async () => {
    for (const [method, documented, where, body] of operations) {
      const missing = await call<ApiError>(null, method, documented, { path: where, body });
      expect([missing.status, missing.json.code], where).toEqual([401, "missing_key"]);
      const revoked = await call<ApiError>(keys.revoked, method, documented, { path: where, body });
      expect([revoked.status, revoked.json.code], where).toEqual([401, "invalid_key"]);
      const editor = await call<ApiError>(keys.editor, method, documented, { path: where, body });
      expect([editor.status, editor.json.code], where).toEqual([403, "forbidden"]);
    }
    // The store dispatches and refunds but does not look readers up; customer service refunds but does not ship.
    expect((await call(keys.store, "GET", "/desk/api/readers", { path: "/desk/api/readers?q=a" })).status).toBe(403);
    expect((await call(keys.service, "GET", "/desk/api/orders")).status).toBe(200);
  });

  it("answers bad input with 400 invalid_input and its fields, never a 500", async () => {
    const order = await paidOrder();
    const fulfil = `/desk/api/orders/${order.number}/fulfilments`;
    const refund = `/desk/api/orders/${order.number}/refunds`;
    const cases: [string, string, string, unknown, string][] = [
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: "1", carrier: "ups", trackingNumber: "1Z" }, "lines"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [], carrier: "ups", trackingNumber: "1Z" }, "lines"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [0.5], carrier: "ups", trackingNumber: "1Z" }, "lines.0"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [1], carrier: "", trackingNumber: "1Z" }, "carrier"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [1], carrier: "ups", trackingNumber: "<b>" }, "trackingNumber"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [1], carrier: "ups", trackingNumber: "1Z", to: "x" }, "form"],
      ["/desk/api/orders/{id}/fulfilments", fulfil, keys.store, { lines: [99], carrier: "ups", trackingNumber: "1Z" }, "lines"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { lines: [{ position: 1, quantity: 0 }], reason: "x" }, "lines.0.quantity"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { lines: [{ position: "one", quantity: 1 }], reason: "x" }, "lines.0.position"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { lines: null, reason: "x" }, "lines"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { lines: [{ position: 1, quantity: 1 }] }, "reason"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { reason: "x".repeat(501) }, "reason"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, { lines: [{ position: 7, quantity: 1 }], reason: "x" }, "lines"],
      ["/desk/api/orders/{id}/refunds", refund, keys.store, [1, 2], "form"],
    ];
    for (const [documented, where, key, body, field] of cases) {
      const bad = await call<ApiError>(key, "POST", documented, { path: where, body });
      expect([bad.status, bad.json.code, Object.keys(bad.json.fields ?? {})], JSON.stringify(body)).toEqual([
        400,
        "invalid_input",
        [field],
      ]);
    }
    const badKey = await call<ApiError>(keys.store, "POST", "/desk/api/orders/{id}/refunds", {
      path: refund,
      body: { reason: "x" },
      headers: { "Idempotency-Key": "short" },
    });
    expect([badKey.status, Object.keys(badKey.json.fields ?? {})]).toEqual([400, ["Idempotency-Key"]]);
    const unreadable = await call<ApiError>(keys.store, "POST", "/desk/api/orders/{id}/refunds", { path: refund, rawBody: "{not json" });
    expect([unreadable.status, unreadable.json.code]).toEqual([400, "unreadable_body"]);
    // None of it refunded or dispatched anything.
    const after = await call<OrderAnswer>(keys.store, "GET", "/desk/api/orders/{id}", { path: `/desk/api/orders/${order.number}` });
    expect([after.json.refundedCents, after.json.shipments]).toEqual([0, []]);
  });
});
