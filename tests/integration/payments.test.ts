import * as cheerio from "cheerio";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { returnUrlOf, startFakeStripe, stripeEventBody, type FakeCheckoutSession, type FakeStripe } from "~/tests/helpers/fake-stripe";
import { selectFromServer } from "~/tests/helpers/server-db";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Subscription checkout through Stripe, against the production build: the reader is sent to
// the Stripe session the (loopback) Stripe API opened, and the subscription becomes active only
// when Stripe says it was paid, by a signed webhook or when the reader comes back. Checked as
// the reader sees it (redirects, the receipt, the account link, the article meter) and, for
// "granted exactly once", in the server's own database, opened read-only.

const SECRET_KEY = "sk_test_51MeridianIntegration000000000";
const WEBHOOK_SECRET = "whsec_meridianIntegrationSecret";
const PASSWORD = "Lantern5!quay";
const CHECKOUT = "/subscriptions/checkout?plan=digital&ab=paywall-article";

let stripe: FakeStripe;
let server: RunningServer;
/** The server's database: our own isolated data dir / schema, handed to it through its env. */
let database: IsolatedConnection;
/** Registered up front, all at once: each registration hashes a password, which takes seconds. */
const readers: Reader[] = [];
const READERS = 10;

interface Reader {
  name: string;
  email: string;
  ip: string;
  /** "mr_session=…" */
  cookie: string;
}

beforeAll(async () => {
  database = await isolatedConnection("pay");
  stripe = await startFakeStripe(SECRET_KEY);
  server = await startBuiltServer(
    {
      PAYMENT_PROVIDER: "stripe",
      // A plan bought once, as one Checkout payment; Stripe Billing's renewing plans are in stripe-billing.test.ts.
      BILLING_RENEWALS: "off",
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      CLIENT_IP_HEADER: "x-forwarded-for",
      RATE_LIMIT_PER_IP: "10000",
      RATE_LIMIT_PER_ACCOUNT: "10000",
    },
    "production",
    database,
  );
  readers.push(...(await Promise.all(Array.from({ length: READERS }, (_, i) => registerReader(i + 1)))));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database.drop();
  await stripe?.close();
});

// ---------------------------------------------------------------------------------------------
// Requests as a browser (or Stripe) makes them.

async function post(
  path: string,
  options: { cookie?: string; ip: string; origin?: string; headers?: Record<string, string>; form?: Record<string, string> },
): Promise<Response> {
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    "X-Forwarded-For": options.ip,
    Origin: options.origin ?? server.url,
    ...options.headers,
  };
  if (options.cookie) headers.Cookie = options.cookie;
  return fetch(server.url + path, { method: "POST", body: new URLSearchParams(options.form).toString(), headers, redirect: "manual" });
}

async function get(path: string, cookie?: string): Promise<Response> {
  return fetch(server.url + path, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

async function registerReader(n: number): Promise<Reader> {
  const [first, last] = ["Ada", `Quill${n}`];
  const email = `payer${n}@example.org`;
  const ip = `203.0.113.${n}`;
  const res = await fetch(`${server.url}/register`, {
    method: "POST",
    body: new URLSearchParams({ firstName: first, lastName: last, emailAddress: email, password: PASSWORD }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip, Origin: server.url },
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const cookie = setCookie(res, "mr_session")?.split(";")[0];
  expect(cookie).toBeTruthy();
  return { name: `${first} ${last}`, email, ip, cookie: cookie! };
}

/** A registered reader no other test has used. */
function newReader(): Reader {
  const reader = readers.shift();
  if (!reader) throw new Error(`all ${READERS} readers are used: register more`);
  return reader;
}

/** The whole Set-Cookie header for `name`, or undefined. */
function setCookie(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

/** Whether a Set-Cookie header tells the browser to drop the cookie. */
function deletesCookie(header: string): boolean {
  const maxAge = /;\s*Max-Age=(-?\d+)/i.exec(header)?.[1];
  const expires = /;\s*Expires=([^;]+)/i.exec(header)?.[1];
  return (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
}

/** Starts a Digital checkout as the reader; returns the redirect and the session it points at. */
async function startCheckout(reader: Reader): Promise<{ res: Response; session: FakeCheckoutSession; checkoutId: string }> {
  const res = await post(CHECKOUT, { cookie: reader.cookie, ip: reader.ip, form: { countryCode: "GB" } });
  expect(res.status).toBe(303);
  const session = stripe.sessionAt(res.headers.get("location") ?? "");
  expect(session, `no Stripe session at ${res.headers.get("location")}`).toBeDefined();
  return { res, session: session!, checkoutId: session!.client_reference_id! };
}

function sessionsCreated(): number {
  return stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;
}

/** The account link's accessible name in the header of the home page, e.g. "My account: Ada Quill1". */
async function accountLabel(cookie: string): Promise<string | undefined> {
  const res = await get("/", cookie);
  expect(res.status).toBe(200);
  return cheerio
    .load(await res.text())('header a[href="/my-account"]')
    .attr("aria-label");
}

async function metered(reader: Reader): Promise<boolean> {
  const res = await get("/service/user/quota", reader.cookie);
  expect(res.status).toBe(200);
  return ((await res.json()) as { metered: boolean }).metered;
}

interface Receipt {
  status: number;
  heading: string;
  /** The receipt's definition list, e.g. { Plan: "Digital", "Access until": "July 3, 2026" }. */
  fields: Record<string, string>;
}

async function receipt(checkoutId: string, cookie: string): Promise<Receipt> {
  const res = await get(`/subscriptions/receipt?checkout=${checkoutId}`, cookie);
  const $ = cheerio.load(await res.text());
  const fields: Record<string, string> = {};
  $("main dl dt").each((_, dt) => {
    fields[$(dt).text()] = $(dt).next("dd").text();
  });
  return { status: res.status, heading: $("main h1").first().text(), fields };
}

async function postWebhook(body: string, signature: string | null): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  if (signature !== null) headers["Stripe-Signature"] = signature;
  return fetch(`${server.url}/api/payments/webhook`, { method: "POST", body, headers });
}

function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
}

/** The event Stripe sends once the session has been paid. */
function completedEvent(session: FakeCheckoutSession, paymentStatus: "paid" | "unpaid" = "paid"): string {
  return stripeEventBody("checkout.session.completed", { ...session, status: "complete", payment_status: paymentStatus, url: null });
}

// ---------------------------------------------------------------------------------------------
// The server's database, read-only.

interface GrantRow {
  role_code: string;
  source: string;
  reference: string;
  access_start: string;
  access_end: string;
}

/** Runs one SELECT (with ? placeholders) on the server's database without being able to write. */
const select = <Row>(sql: string, params: string[]) => selectFromServer<Row>(database, sql, params);

/** Every subscription (access period) the reader has been granted. */
function grantsOf(reader: Reader): Promise<GrantRow[]> {
  return select<GrantRow>(
    `SELECT s.role_code, s.source, s.reference, s.access_start, s.access_end
       FROM subscription s JOIN app_user u ON u.id = s.user_id
      WHERE u.email = ?`,
    [reader.email],
  );
}

function checkoutRow(checkoutId: string) {
  return select<{ status: string; activated_at: string | null }>("SELECT status, activated_at FROM subscription_checkout WHERE id = ?", [
    checkoutId,
  ]);
}

// ---------------------------------------------------------------------------------------------

describe("starting a checkout", () => {
  it("sends a registered reader (303) to the Stripe session opened for the plan's price and its tax, their e-mail and the checkout", async () => {
    const reader = newReader();
    const before = stripe.requests.length;
    const res = await post(CHECKOUT, { cookie: reader.cookie, ip: reader.ip, form: { countryCode: "US", region: "NY" } });

    expect(res.status).toBe(303);
    const created = stripe.requests.slice(before).filter((r) => r.path === "/v1/checkout/sessions");
    expect(created).toHaveLength(1);
    const request = created[0]!;
    expect(request.method).toBe("POST");
    expect(request.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const checkoutId = request.form.get("client_reference_id") ?? "";
    expect(checkoutId).toMatch(/^chk_[A-Za-z0-9_-]{22}$/);
    expect(request.idempotencyKey).toContain(checkoutId);
    expect(request.form.get("line_items[0][price_data][unit_amount]")).toBe("1200");
    expect(request.form.get("line_items[0][price_data][currency]")).toBe("usd");
    // Stripe adds the sales tax by the New York rate, as the site worked it out.
    const [rate] = [...stripe.taxRates.values()];
    expect(rate).toMatchObject({ percentage: 4, inclusive: false, country: "US", state: "NY" });
    expect(request.form.get("line_items[0][tax_rates][0]")).toBe(rate!.id);
    expect(request.form.get("customer_email")).toBe(reader.email);
    expect(request.form.get("success_url")).toBe(
      `${server.url}/subscriptions/complete?checkout=${checkoutId}&session_id={CHECKOUT_SESSION_ID}`,
    );

    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === checkoutId)!;
    expect(session).toMatchObject({ amount_total: 1248, currency: "usd", customer_email: reader.email, status: "open" });
    expect(res.headers.get("location")).toBe(session.url);
  });

  it("before payment, leaves the reader metered, and the receipt says the payment is being confirmed", async () => {
    const reader = newReader();
    const { checkoutId } = await startCheckout(reader);

    expect(await metered(reader)).toBe(true);
    expect(await accountLabel(reader.cookie)).toBe(`My account: ${reader.name}`);
    const page = await receipt(checkoutId, reader.cookie);
    expect(page.status).toBe(200);
    expect(page.heading).toBe("We are confirming your payment");
    expect(page.heading).not.toContain("Thank you for subscribing");
    expect(await grantsOf(reader)).toEqual([]);
  });

  it("answers 404 for an unknown plan, and opens no session", async () => {
    const reader = newReader();
    const before = sessionsCreated();
    const res = await post("/subscriptions/checkout?plan=platinum&ab=paywall-article", { cookie: reader.cookie, ip: reader.ip });
    expect(res.status).toBe(404);
    expect(sessionsCreated()).toBe(before);
  });

  it("sends a guest to sign in first, and opens no session", async () => {
    const before = sessionsCreated();
    const res = await post(CHECKOUT, { ip: "203.0.113.200" });
    expect([302, 303]).toContain(res.status);
    const signIn = new URL(res.headers.get("location") ?? "", server.url);
    expect(signIn.pathname).toBe("/sign-in");
    expect(signIn.searchParams.get("redirectTo")).toBe(CHECKOUT);
    expect(sessionsCreated()).toBe(before);
  });

  it("refuses a post from another site (Origin), and opens no session", async () => {
    const reader = newReader();
    const before = sessionsCreated();
    const res = await post(CHECKOUT, { cookie: reader.cookie, ip: reader.ip, origin: "https://evil.example" });
    expect(sessionsCreated()).toBe(before);
    // Remix itself refuses a document POST whose Origin does not match the Host (with a bare
    // 500) before any route code runs; our own check answers 403 to the rest (Sec-Fetch-Site).
    expect(res.ok).toBe(false);
    expect(res.headers.get("location")).toBeNull();
    const browserLike = await post(CHECKOUT, { cookie: reader.cookie, ip: reader.ip, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(browserLike.status).toBe(403);
    expect(sessionsCreated()).toBe(before);
  });
});

describe("Stripe's webhook", () => {
  it("activates the subscription on a signed checkout.session.completed, and replays of it grant nothing more", async () => {
    const reader = newReader();
    const { session, checkoutId } = await startCheckout(reader);
    // The fake's session stays unpaid, so only the webhook can activate this checkout.
    const body = completedEvent(session);
    const signature = sign(body);

    const first = await postWebhook(body, signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, outcome: "activated" });

    expect(await metered(reader)).toBe(false);
    expect(await accountLabel(reader.cookie)).toBe(`My account: ${reader.name}, Digital subscriber`);
    const activated = await receipt(checkoutId, reader.cookie);
    expect(activated.heading).toBe("Thank you for subscribing");
    expect(activated.fields).toMatchObject({ Plan: "Digital", Reference: checkoutId });
    expect(activated.fields.Date).toMatch(/^[A-Z][a-z]+ \d{2}, \d{4}$/);
    expect(activated.fields["Access until"]).toMatch(/^[A-Z][a-z]+ \d{2}, \d{4}$/);
    const grants = await grantsOf(reader);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ role_code: "MRSUB_GOOD", source: "web", reference: checkoutId });
    const [activation] = await checkoutRow(checkoutId);

    // The same request again, then Stripe's retries (freshly signed), two of them at once.
    const again = await postWebhook(body, signature);
    const [third, fourth] = await Promise.all([postWebhook(body, sign(body)), postWebhook(body, sign(body))]);
    for (const replay of [again, third, fourth]) {
      expect(replay.status).toBe(200);
      expect(await replay.json()).toMatchObject({ received: true, outcome: "ignored" });
    }

    const after = await receipt(checkoutId, reader.cookie);
    expect(after.fields["Access until"]).toBe(activated.fields["Access until"]);
    expect(after.fields.Date).toBe(activated.fields.Date);
    expect(await grantsOf(reader)).toEqual(grants);
    expect(await checkoutRow(checkoutId)).toEqual([activation]);
    expect(activation).toMatchObject({ status: "activated" });
  });

  it("answers 400 to a bad signature, a tampered body, no signature or an old one, and activates nothing", async () => {
    const reader = newReader();
    const { session, checkoutId } = await startCheckout(reader);
    const body = completedEvent(session);
    const unpaid = completedEvent(session, "unpaid");
    const tampered = unpaid.replace('"payment_status": "unpaid"', '"payment_status": "paid"');
    expect(tampered).not.toBe(unpaid);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;

    const attempts: [string, Response][] = [
      ["signed with another secret", await postWebhook(body, sign(body, { secret: "whsec_someoneElse" }))],
      ["body changed after signing", await postWebhook(tampered, sign(unpaid))],
      ["no Stripe-Signature header", await postWebhook(body, null)],
      ["signed ten minutes ago", await postWebhook(body, sign(body, { timestamp: tenMinutesAgo }))],
    ];
    for (const [what, res] of attempts) expect(res.status, what).toBe(400);

    expect(await metered(reader)).toBe(true);
    expect(await accountLabel(reader.cookie)).toBe(`My account: ${reader.name}`);
    expect((await receipt(checkoutId, reader.cookie)).heading).toBe("We are confirming your payment");
    expect(await grantsOf(reader)).toEqual([]);

    // The same event, correctly signed, is what would have activated it.
    const genuine = await postWebhook(body, sign(body));
    expect(genuine.status).toBe(200);
    expect(await metered(reader)).toBe(false);
  });
});

describe("coming back from Stripe", () => {
  it("sets the completion cookie; the next page load activates the subscription and deletes the cookie", async () => {
    const reader = newReader();
    const { session, checkoutId } = await startCheckout(reader);
    stripe.completeSession(session.id);

    const back = await get(returnUrlOf(session).slice(server.url.length), reader.cookie);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`/subscriptions/receipt?checkout=${checkoutId}`);
    const written = setCookie(back, "mr_checkout_complete");
    expect(written).toBeDefined();
    expect(written).toMatch(/;\s*HttpOnly/i);
    expect(written).toMatch(/;\s*Path=\/(;|$)/i);
    expect(deletesCookie(written!)).toBe(false);
    expect(await metered(reader)).toBe(true);

    const completion = written!.split(";")[0]!;
    const asked = stripe.requests.length;
    const next = await get("/", `${reader.cookie}; ${completion}`);
    expect(next.status).toBe(200);
    const label = cheerio
      .load(await next.text())('header a[href="/my-account"]')
      .attr("aria-label");
    expect(label).toBe(`My account: ${reader.name}, Digital subscriber`);
    const cleared = setCookie(next, "mr_checkout_complete");
    expect(cleared).toBeDefined();
    expect(deletesCookie(cleared!)).toBe(true);
    expect(cleared).toMatch(/;\s*Path=\/(;|$)/i);
    // It asked Stripe whether the session was paid rather than taking the cookie's word for it.
    expect(stripe.requests.slice(asked)).toContainEqual(
      expect.objectContaining({ method: "GET", path: `/v1/checkout/sessions/${session.id}` }),
    );

    expect(await metered(reader)).toBe(false);
    const page = await receipt(checkoutId, reader.cookie);
    expect(page.heading).toBe("Thank you for subscribing");
    expect(page.fields).toMatchObject({
      Plan: "Digital",
      "Amount paid": "$12.00 for one month",
      Account: reader.email,
      Reference: checkoutId,
    });
    expect(await grantsOf(reader)).toHaveLength(1);
  });

  it("does not activate an unpaid checkout the reader comes back from, and still deletes the cookie", async () => {
    const reader = newReader();
    const { session, checkoutId } = await startCheckout(reader);

    const back = await get(returnUrlOf(session).slice(server.url.length), reader.cookie);
    const completion = setCookie(back, "mr_checkout_complete")?.split(";")[0];
    expect(completion).toBeDefined();
    const next = await get("/", `${reader.cookie}; ${completion}`);
    expect(next.status).toBe(200);
    expect(
      cheerio
        .load(await next.text())('header a[href="/my-account"]')
        .attr("aria-label"),
    ).toBe(`My account: ${reader.name}`);
    expect(deletesCookie(setCookie(next, "mr_checkout_complete") ?? "")).toBe(true);

    expect(await metered(reader)).toBe(true);
    expect((await receipt(checkoutId, reader.cookie)).heading).toBe("We are confirming your payment");
  });

  it("will not open another reader's completion or receipt (404), and activates nothing for either", async () => {
    const owner = newReader();
    const intruder = newReader();
    const { session, checkoutId } = await startCheckout(owner);
    stripe.completeSession(session.id);
    const completeUrl = returnUrlOf(session).slice(server.url.length);

    const complete = await get(completeUrl, intruder.cookie);
    expect(complete.status).toBe(404);
    expect(setCookie(complete, "mr_checkout_complete")).toBeUndefined();
    expect((await receipt(checkoutId, intruder.cookie)).status).toBe(404);

    expect(await metered(intruder)).toBe(true);
    expect(await accountLabel(intruder.cookie)).toBe(`My account: ${intruder.name}`);
    expect(await grantsOf(intruder)).toEqual([]);
    expect(await metered(owner)).toBe(true);
    expect(await checkoutRow(checkoutId)).toEqual([{ status: "created", activated_at: null }]);

    // The owner can.
    expect((await get(completeUrl, owner.cookie)).status).toBe(302);
    expect((await receipt(checkoutId, owner.cookie)).heading).toBe("Thank you for subscribing");
  });
});
