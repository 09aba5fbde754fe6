import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { availabilities, insertOrder } from "~/tests/helpers/store-orders";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Order downloads and purchase history against the production build. The checkout routes are
// another part of the store, so orders are written into the server's own database (our
// isolated data dir / schema, handed to the server through its env), as the checkout leaves them.

const PASSWORD = "Lantern5!quay";
const DAY = 24 * 60 * 60 * 1000;

/** A signed-in reader and their account id. */
async function register(server: RunningServer, db: Database, name: string): Promise<{ reader: Reader; id: string; email: string }> {
  const reader = new Reader(server.url);
  const email = `${name}.${process.pid}@example.org`;
  const res = await reader.request("/register", {
    form: { firstName: "Ines", lastName: "Valcourt", emailAddress: email, password: PASSWORD },
  });
  expect(res.status).toBe(303);
  const row = await db.selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { reader, id: row.id, email };
}

describe("order downloads and purchase history", () => {
  let database: IsolatedConnection;
  let server: RunningServer;
  let db: Database;
  let pick: Awaited<ReturnType<typeof availabilities>>;
  let buyer: Awaited<ReturnType<typeof register>>;
  let stranger: Awaited<ReturnType<typeof register>>;

  beforeAll(async () => {
    database = await isolatedConnection("dl");
    server = await startBuiltServer({ RATE_LIMIT_PER_IP: "10000" }, "production", database);
    db = connect(database);
    pick = await availabilities(db);
    [buyer, stranger] = await Promise.all([register(server, db, "buyer"), register(server, db, "stranger")]);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    await database.drop();
  });

  it("sends the buyer their ebook as a private EPUB attachment, and answers 404 to everyone else", async () => {
    const order = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: new Date(Date.now() - DAY).toISOString(),
      lines: [{ availabilityId: pick.hardcover.id }, { availabilityId: pick.kindle.id }],
    });
    const path = `/download/order/${order.id}/2`;
    const res = await buyer.reader.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/epub+zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.epub"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const start = Buffer.from(await res.arrayBuffer()).subarray(0, 38);
    // A ZIP file, whose first entry is the EPUB's mimetype.
    expect(start.subarray(0, 4).toString("hex")).toBe("504b0304");
    expect(start.toString("latin1")).toMatch(/mimetype$/);

    expect((await stranger.reader.request(path)).status).toBe(404);
    expect((await new Reader(server.url).request(path)).status).toBe(404);
    expect((await new Reader(server.url).request(`${path}?key=${order.accessToken}`)).status).toBe(200);
    expect((await buyer.reader.request(`/download/order/${order.id}/1`)).status).toBe(404);
    expect((await buyer.reader.request(`/download/order/${order.id}/3`)).status).toBe(404);
    expect((await buyer.reader.request(`/download/order/ord_${"x".repeat(22)}/2`)).status).toBe(404);
    expect((await buyer.reader.request(`/download/order/not-an-order/abc`)).status).toBe(404);
  });

  it("lets a guest download with the order's key only, and nothing from an unpaid order", async () => {
    const guest = await insertOrder(db, {
      userId: null,
      email: "guest@example.org",
      status: "paid",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.pdfBook.id }],
    });
    const res = await new Reader(server.url).request(`/download/order/${guest.id}/1?key=${guest.accessToken}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await new Reader(server.url).request(`/download/order/${guest.id}/1?key=wrong`)).status).toBe(404);
    expect((await buyer.reader.request(`/download/order/${guest.id}/1`)).status).toBe(404);

    const unpaid = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "pending_payment",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId: pick.pdfBook.id }],
    });
    expect((await buyer.reader.request(`/download/order/${unpaid.id}/1`)).status).toBe(404);
    expect((await new Reader(server.url).request(`/download/order/${unpaid.id}/1?key=${unpaid.accessToken}`)).status).toBe(404);
  });

  it("answers 410 with a page saying access has ended once a case study is more than six months old", async () => {
    const bought = new Date(Date.now() - 200 * DAY).toISOString();
    const order = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: bought,
      lines: [{ availabilityId: pick.caseStudy.id }],
    });
    const res = await buyer.reader.request(`/download/order/${order.id}/1`);
    expect(res.status).toBe(410);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const $ = cheerio.load(await res.text());
    expect($("h1").text()).toBe("Your access to this case study has ended");
    expect($("main").text()).toContain(pick.caseStudy.title);
    expect($(`a[href="/order/${order.id}"]`)).toHaveLength(1);
    // Someone else still gets the plain 404.
    expect((await stranger.reader.request(`/download/order/${order.id}/1`)).status).toBe(404);

    const recent = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: new Date(Date.now() - 30 * DAY).toISOString(),
      lines: [{ availabilityId: pick.caseStudy.id }],
    });
    expect((await buyer.reader.request(`/download/order/${recent.id}/1`)).status).toBe(200);
  });

  it("lists the buyer's orders in their purchase history and nobody else's", async () => {
    const seven = [pick.hardcover, pick.kindle, pick.epub, pick.pdfBook, pick.html, pick.spreadsheet, pick.bundle];
    const order = await insertOrder(db, {
      userId: buyer.id,
      email: buyer.email,
      status: "paid",
      createdAt: new Date().toISOString(),
      lines: seven.map((a) => ({ availabilityId: a.id })),
    });
    const $ = await buyer.reader.page("/my-library/history/purchases");
    const entry = $(`a[href="/order/${order.id}"]`).closest("li");
    expect(entry.find("h3").text()).toBe(`Order ${order.number}`);
    expect(entry.text()).toContain("Purchased");
    expect(entry.find("ul li")).toHaveLength(6);
    expect(entry.find("ul li").last().text()).toBe("and 2 more");

    const other = await stranger.reader.page("/my-library/history/purchases");
    expect(other(`a[href^="/order/"]`)).toHaveLength(0);
    expect(other("main").text()).toContain("Welcome to your purchase history.");
  });
});

describe("purchase history during store maintenance", () => {
  let server: RunningServer;

  beforeAll(async () => {
    // A window of two hours around now, in UTC: the store is closed while the test runs.
    const minute = (offset: number) => {
      const at = new Date(Date.now() + offset * 60_000);
      return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
    };
    server = await startBuiltServer({
      RATE_LIMIT_PER_IP: "10000",
      STORE_MAINTENANCE_WINDOW: `${minute(-60)}-${minute(60)}`,
      STORE_TIMEZONE: "UTC",
    });
  }, 120_000);

  afterAll(() => server?.stop());

  it("shows the maintenance notice instead of the order history, while the reading history stays open", async () => {
    const reader = new Reader(server.url);
    const res = await reader.request("/register", {
      form: { firstName: "Ines", lastName: "Valcourt", emailAddress: `closed.${process.pid}@example.org`, password: PASSWORD },
    });
    expect(res.status).toBe(303);
    const $ = await reader.page("/my-library/history/purchases");
    expect($('[role="status"] h2').text()).toBe("Ordering is closed for maintenance");
    expect($("main").text()).not.toContain("Welcome to your purchase history.");
    const reading = await reader.page("/my-library/history/reading");
    expect(reading('[role="status"]').text()).not.toContain("maintenance");
    expect(reading("main").text()).toContain("Welcome to your reading history.");
  });
});
