import crypto from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for Stripe's v1 API, as the `stripe` package uses it for Checkout:
 * form-encoded POSTs with bracketed keys, bearer-key auth, JSON objects back,
 * `{ error: { type, message } }` with a 4xx/5xx status on failure, and idempotency keys that
 * replay the first answer. Point the adapter (or the built server's STRIPE_API_URL) at `url`.
 *
 * Two session ids misbehave on purpose: `cs_test_outage` answers 500 and `cs_test_slow`
 * answers after two seconds.
 */
export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  /** As the client sent it, with the `{CHECKOUT_SESSION_ID}` placeholder still in it. */
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string;
  contentType: string;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}

export interface FakeStripe {
  /** Base URL, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Every request received, in order (tests may empty it). */
  requests: RecordedRequest[];
  /** The checkout sessions created, by id (tests may change their state). */
  sessions: Map<string, FakeCheckoutSession>;
  /** The session whose payment page URL this is (where the client sent the customer). */
  sessionAt(paymentUrl: string): FakeCheckoutSession | undefined;
  /** What Stripe records once the customer has paid on the hosted page. */
  completeSession(id: string, paymentStatus?: FakeCheckoutSession["payment_status"]): FakeCheckoutSession;
  close(): Promise<void>;
}

/** The URL Stripe sends the customer back to: the success URL with the placeholder filled in. */
export function returnUrlOf(session: FakeCheckoutSession): string {
  return session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
}

/** The JSON body of a webhook event about `object`, laid out as Stripe sends it. */
export function stripeEventBody(type: string, object: object, id = `evt_test_${crypto.randomBytes(8).toString("hex")}`): string {
  return JSON.stringify(
    {
      id,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    },
    null,
    2,
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the fake on 127.0.0.1 and a free port; only `secretKey` is accepted as the API key. */
export function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const replays = new Map<string, FakeCheckoutSession>();
  let counter = 0;

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
    const form = new URLSearchParams(body);
    requests.push({
      method: req.method ?? "",
      path,
      authorization: req.headers.authorization ?? "",
      contentType: req.headers["content-type"] ?? "",
      idempotencyKey,
      form,
    });
    const json = (status: number, payload: object, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { "content-type": "application/json", "request-id": `req_${++counter}`, ...headers })
        .end(JSON.stringify(payload));
    const error = (status: number, type: string, message: string, extra: object = {}) =>
      json(status, { error: { type, message, ...extra } });

    const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (key !== secretKey) {
      return error(401, "invalid_request_error", `Invalid API Key provided: sk_test_****${key.slice(-4)}`);
    }

    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      if (idempotencyKey && replays.has(idempotencyKey)) {
        return json(200, replays.get(idempotencyKey)!, { "idempotent-replayed": "true" });
      }
      const amount = Number(form.get("line_items[0][price_data][unit_amount]"));
      if (amount < 50) {
        return error(400, "invalid_request_error", "The Checkout Session's total amount due must add up to at least $0.50 usd", {
          code: "amount_too_small",
          param: "line_items[0][price_data][unit_amount]",
        });
      }
      const id = `cs_test_a1${String(++counter).padStart(6, "0")}`;
      const now = Math.floor(Date.now() / 1000);
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match) metadata[match[1]!] = value;
      }
      const session: FakeCheckoutSession = {
        id,
        object: "checkout.session",
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_total: amount * Number(form.get("line_items[0][quantity]")),
        currency: form.get("line_items[0][price_data][currency]") ?? "",
        customer_email: form.get("customer_email"),
        client_reference_id: form.get("client_reference_id"),
        metadata,
        success_url: form.get("success_url") ?? "",
        cancel_url: form.get("cancel_url") ?? "",
        url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
        created: now,
        expires_at: now + 24 * 3600,
        livemode: false,
      };
      sessions.set(id, session);
      if (idempotencyKey) replays.set(idempotencyKey, session);
      return json(200, session);
    }

    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === "GET" && retrieve) {
      const id = decodeURIComponent(retrieve[1]!);
      if (id === "cs_test_outage") {
        return error(500, "api_error", "An unknown error occurred");
      }
      if (id === "cs_test_slow") {
        const timer = setTimeout(() => json(200, { id, object: "checkout.session" }), 2000);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      const session = sessions.get(id);
      if (!session) {
        return error(404, "invalid_request_error", `No such checkout.session: '${id}'`, {
          code: "resource_missing",
          param: "session",
        });
      }
      return json(200, session);
    }

    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (req.method === "POST" && expire) {
      const session = sessions.get(decodeURIComponent(expire[1]!));
      if (!session) {
        return error(404, "invalid_request_error", `No such checkout.session: '${expire[1]}'`, {
          code: "resource_missing",
          param: "session",
        });
      }
      if (session.status !== "open") {
        return error(
          400,
          "invalid_request_error",
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        );
      }
      return json(200, Object.assign(session, { status: "expired" }));
    }

    return error(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path}).`);
  });

  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        sessions,
        sessionAt: (paymentUrl) => [...sessions.values()].find((s) => s.url === paymentUrl),
        completeSession(id, paymentStatus = "paid") {
          const session = sessions.get(id);
          if (!session) throw new Error(`fake Stripe: no session ${id}`);
          return Object.assign(session, { status: "complete", payment_status: paymentStatus });
        },
        close() {
          server.closeAllConnections();
          return new Promise<void>((done) => server.close(() => done()));
        },
      });
    }),
  );
}
