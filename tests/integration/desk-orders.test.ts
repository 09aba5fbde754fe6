import fs from "node:fs";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { markOrderPaid } from "~/server/store/order-payment";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk's orders (ADR 086) through the production build, as plain form posts: who may reach
// them, the list's filter and CSV, dispatch with tracking, refunds of chosen lines, cancelling,
// bad input, replays, and another site's posts.

let connection: IsolatedConnection;
let db: Database;
let server: RunningServer;
let store: Reader;
let service: Reader;
let editor: Reader;
let pick: Awaited<ReturnType<typeof availabilities>>;
const NOW = new Date();

beforeAll(async () => {
  connection = await isolatedConnection("desk-orders");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  const people = deskPeople(server.url, db);
  store = (await people.staffMember(["store"], "Stella")).reader;
  service = (await people.staffMember(["service"], "Sergio")).reader;
  editor = (await people.staffMember(["editor"], "Edith")).reader;
  pick = await availabilities(db);
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

/** A guest's order of a hardcover and an ebook, paid at the sandbox. */
async function paidOrder(email = `buyer.${Date.now()}.${Math.random().toString(36).slice(2)}@example.org`) {
  const order = await insertOrder(db, {
    userId: null,
    email,
    status: "pending_payment",
    createdAt: NOW.toISOString(),
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
  return { ...order, email, totalCents: total_cents, sessionId: session.id };
}

const tokenOf = (page: cheerio.CheerioAPI, intent: string) =>
  page(`form:has(input[name=intent][value=${intent}]) input[name=token]`).attr("value")!;
const mailsTo = (email: string) => {
  const dir = path.join(connection.dataDir, "mail");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        // Quoted-printable, as the mail is sent: soft line breaks joined, "=3D" back to "=".
        .map((f) =>
          fs
            .readFileSync(path.join(dir, f), "utf8")
            .replace(/=\r?\n/g, "")
            .replace(/=3D/g, "="),
        )
        .filter((m) => m.includes(`To: ${email}`))
    : [];
};

describe(`the desk's orders (${dialectName})`, () => {
  it("gives guests and readers 404, an editor 403, and refuses a role without the action with nothing written", async () => {
    const order = await paidOrder();
    const { reader } = await deskPeople(server.url, db).signedInReader("Plain");
    for (const asker of [new Reader(server.url), reader])
      for (const address of ["/desk/orders", "/desk/orders.csv", `/desk/orders/${order.number}`]) {
        expect((await asker.request(address)).status, address).toBe(404);
        expect((await asker.request(address, { form: { intent: "refund", reason: "x" } })).status, address).toBe(404);
      }
    expect((await editor.request("/desk/orders")).status).toBe(403);
    expect((await editor.request(`/desk/orders/${order.number}`)).status).toBe(403);
    const page = await service.page(`/desk/orders/${order.number}`);
    expect(page("form:has(input[value=fulfil])")).toHaveLength(0);
    const refused = await service.request(`/desk/orders/${order.number}`, {
      form: { intent: "fulfil", token: "abcdefghijklmnopqrstuv", lines: "1", carrier: "ups", trackingNumber: "1Z1" },
    });
    expect(refused.status).toBe(403);
    expect(await db.selectFrom("store_shipment").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
    expect((await store.request("/desk/orders/NO-SUCH-ORDER")).status).toBe(404);
    expect((await store.request("/desk/orders/<script>")).status).toBe(404);
  });

  it("lists orders by state and day with links, and exports the same filter as formula-safe CSV", async () => {
    const order = await paidOrder();
    await db
      .updateTable("store_order")
      .set({ ship_first_name: '=HYPERLINK("x")', ship_last_name: "Byron" })
      .where("id", "=", order.id)
      .execute();
    const day = NOW.toISOString().slice(0, 10);
    const page = await store.page(`/desk/orders?state=paid&from=${day}&to=${day}`);
    expect(page("h1").text()).toBe("Orders");
    expect(
      page("nav[aria-label=Desk] a")
        .map((_, a) => page(a).text())
        .get(),
    ).toContain("Orders");
    expect(page(`tbody a[href='/desk/orders/${order.number}']`)).toHaveLength(1);
    expect(page("select[name=state] option[selected]").attr("value")).toBe("paid");
    const csvHref = page("a:contains('Export these orders as CSV')").attr("href")!;
    expect(csvHref).toBe(`/desk/orders.csv?state=paid&from=${day}&to=${day}`);
    const csv = await store.request(csvHref);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe("Order,Placed (UTC),Buyer e-mail,Ship to,Items,Total,Refunded,State,Refund");
    expect(text).toContain(`${order.number},`);
    expect(text).toContain(`"'=HYPERLINK(""x"") Byron"`);
    const none = await store.page("/desk/orders?state=refunded&from=2001-01-01&to=2001-01-02");
    expect(none("[role=status]").text()).toContain("No orders.");
    const bad = await store.page("/desk/orders?state=lost&from=yesterday");
    expect(bad("[role=alert]").text()).toBe("Some of the filter could not be read and was left out: dates are days such as 2026-05-14.");
  });

  it("dispatches with tracking (bad input refused with messages, a replay harmless), mails the buyer, and marks it delivered", async () => {
    const order = await paidOrder();
    const here = `/desk/orders/${order.number}`;
    const page = await store.page(here);
    const token = tokenOf(page, "fulfil");
    const bad = await store.request(here, { form: { intent: "fulfil", token, carrier: "", trackingNumber: "<>" } });
    expect(bad.status).toBe(400);
    const badPage = cheerio.load(await bad.text());
    expect(badPage("title").text()).toMatch(/^Error: /);
    for (const message of [
      "Choose the lines in this parcel.",
      "Choose the carrier.",
      "Enter the tracking number: letters, digits, spaces and hyphens, up to 40.",
    ])
      expect(badPage("[role=alert]").text()).toContain(message);
    const ebook = await store.request(here, { form: { intent: "fulfil", token, lines: "2", carrier: "ups", trackingNumber: "1Z999" } });
    expect(ebook.status).toBe(409);

    const form = { intent: "fulfil", token, lines: "1", carrier: "ups", trackingNumber: "1Z999AA10123456784" };
    const sent = await store.request(here, { form });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`${here}?done=dispatched`);
    expect((await store.request(here, { form })).status).toBe(303);
    expect(await db.selectFrom("store_shipment").select("id").where("order_id", "=", order.id).execute()).toHaveLength(1);
    const mails = mailsTo(order.email);
    expect(mails.filter((m) => m.includes("has been dispatched"))).toHaveLength(1);
    expect(mails.join("\n")).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");

    const shown = await store.page(`${here}?done=dispatched`);
    expect(shown("[role=status]").text()).toContain("Dispatched.");
    expect(shown("a[href='https://www.ups.com/track?tracknum=1Z999AA10123456784']")).toHaveLength(1);
    expect(shown("form:has(input[value=cancel])")).toHaveLength(0);
    const shipment = shown("input[name=shipment]").attr("value")!;
    expect((await store.request(here, { form: { intent: "deliver", shipment } })).status).toBe(303);
    expect((await store.page(here))("main p").first().text()).toContain("Delivered");
    expect((await store.request(here, { form: { intent: "deliver", shipment: "00000000-0000-4000-8000-000000000000" } })).status).toBe(404);
    const foreign = await store.request(here, {
      form: { intent: "deliver", shipment },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
  });

  it("refunds a chosen line for service (the sandbox refunds that much, the download closes, a credit note is mailed) and cancels another order in full", async () => {
    const order = await paidOrder();
    const here = `/desk/orders/${order.number}`;
    const page = await service.page(here);
    const token = tokenOf(page, "refund");
    const empty = await service.request(here, { form: { intent: "refund", token, "qty-1": "0", "qty-2": "0", reason: "" } });
    expect(empty.status).toBe(400);
    const emptyText = cheerio
      .load(await empty.text())("[role=alert]")
      .text();
    expect(emptyText).toContain("Choose how many of at least one line to refund.");
    expect(emptyText).toContain("Say why, for the audit log: up to 500 characters.");
    const tooMany = await service.request(here, { form: { intent: "refund", token, "qty-2": "3", reason: "Faulty" } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("Refund at most what is left of each line.");

    const form = { intent: "refund", token, "qty-2": "1", reason: "The file would not open" };
    const done = await service.request(here, { form });
    expect(done.status).toBe(303);
    expect((await service.request(here, { form })).status).toBe(303);
    const ebookCents = (
      await db
        .selectFrom("store_order_line")
        .select("line_total_cents")
        .where("order_id", "=", order.id)
        .where("position", "=", 2)
        .executeTakeFirstOrThrow()
    ).line_total_cents;
    const refunded = await db.selectFrom("sandbox_refund").select("amount_cents").where("payment_id", "=", order.sessionId).execute();
    expect(refunded.map((r) => r.amount_cents)).toEqual([ebookCents]);
    const download = await fetch(`${server.url}/download/order/${order.id}/2?key=${encodeURIComponent(order.accessToken)}`);
    expect(download.status).toBe(410);
    expect(await download.text()).toContain("This download has closed");
    expect(
      mailsTo(order.email)
        .filter((m) => m.includes("Your Meridian Review refund for order"))
        .join("\n"),
    ).toMatch(/credit-note-CN-\d{6}\.pdf/);
    const audit = await db.selectFrom("desk_audit").select(["action", "actor"]).where("subject", "=", `order:${order.number}`).execute();
    expect(audit.map((a) => a.action)).toEqual(["order.refund"]);

    const other = await paidOrder();
    const otherHere = `/desk/orders/${other.number}`;
    const cancel = tokenOf(await store.page(otherHere), "cancel");
    const cancelled = await store.request(otherHere, { form: { intent: "cancel", token: cancel, reason: "Buyer asked" } });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toBe(`${otherHere}?done=cancelled`);
    const after = await store.page(`${otherHere}?done=cancelled`);
    expect(after("main p").first().text()).toContain("Cancelled, Refunded");
    const again = await store.request(otherHere, {
      form: { intent: "refund", token: tokenOf(after, "refund") ?? "abcdefghijklmnopqrstuv", "qty-1": "1", reason: "Again" },
    });
    expect(again.status).toBe(400);
    const buyerPage = cheerio.load(
      await (await fetch(`${server.url}/order/${other.id}?key=${encodeURIComponent(other.accessToken)}`)).text(),
    );
    expect(buyerPage("[role=status]").text()).toContain("cancelled, and what you paid has been refunded");
  });
});
