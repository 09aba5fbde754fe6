import crypto from "node:crypto";
import type * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { insertReader } from "~/tests/helpers/reader-records";
import { availabilities, insertOrder, insertRefund, priceOrder } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The desk's reports (ADR 090) through the production build: who may see them, the page and its
// CSV for a range of days made by hand (sales, subscriptions), and the meter funnel as readers
// make it on the site: a guest walled, registering from the wall, then subscribing from the
// subscribe wall.

let connection: IsolatedConnection;
let db: Database;
let server: RunningServer;
let store: Reader;
let service: Reader;
let editor: Reader;
const ADDRESSES = ["/desk/reports", "/desk/reports/sales.csv", "/desk/reports/subscriptions.csv", "/desk/reports/funnel.csv"];
const PASSWORD = "Correct7horse!";

beforeAll(async () => {
  connection = await isolatedConnection("desk-reports");
  // A short meter: one free article for a guest, two for a registered reader.
  server = await startBuiltServer(
    { RATE_LIMIT_PER_ACCOUNT: "1000", METER_GUEST_LIMIT: "1", METER_REGISTERED_LIMIT: "2" },
    "production",
    connection,
  );
  db = connect(connection);
  const people = deskPeople(server.url, db);
  store = (await people.staffMember(["store"], "Stella")).reader;
  service = (await people.staffMember(["service"], "Sergio")).reader;
  editor = (await people.staffMember(["editor"], "Edith")).reader;
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

/** Each body row of the table captioned so: its heading cell, then its figures. */
function tableRows(page: cheerio.CheerioAPI, caption: string): string[][] {
  const table = page("table").filter((_, t) => page(t).find("caption").text() === caption);
  expect(table, caption).toHaveLength(1);
  return table
    .find("tbody tr, tfoot tr")
    .map((_, tr) => [
      page(tr)
        .find("th, td")
        .map((__, cell) => page(cell).text())
        .get(),
    ])
    .get() as string[][];
}

const csvLines = async (res: Response) => (await res.text()).split("\r\n").filter((line) => line !== "");

/** A reader made long before the reports' days, who counts in none of them by being made. */
const readerId = (name: string) => insertReader(db, name, "2025-01-01T00:00:00.000Z");

describe(`the desk's reports (${dialectName})`, () => {
  it("gives guests and readers 404 and staff without the reports 403, and lists them in the store's bar", async () => {
    const { reader } = await deskPeople(server.url, db).signedInReader("Plain");
    for (const asker of [new Reader(server.url), reader])
      for (const address of ADDRESSES) {
        expect((await asker.request(address)).status, address).toBe(404);
        expect((await asker.request(address, { form: { from: "2025-01-01" } })).status, address).toBe(404);
      }
    for (const asker of [editor, service])
      for (const address of ADDRESSES) expect((await asker.request(`${address}?from=2025-04-01`)).status, address).toBe(403);
    // Nothing to post to.
    expect((await store.request("/desk/reports", { form: { from: "2025-04-01" } })).status).toBe(404);
    const home = await store.page("/desk");
    expect(
      home("nav[aria-label=Desk] a")
        .map((_, a) => home(a).attr("href"))
        .get(),
    ).toEqual(["/desk/orders", "/desk/products", "/desk/offers", "/desk/reports"]);
  });

  it("shows a range's sales and subscriptions, and gives each section as formula-safe CSV", async () => {
    const pick = await availabilities(db);
    const products = await db.selectFrom("product_availability").select(["id", "product_id"]).orderBy("id").execute();
    const a = products.find((p) => p.id === pick.hardcover.id)!;
    const b = products.find((p) => p.product_id !== a.product_id)!;
    const aTitle = (await db.selectFrom("product").select("title").where("id", "=", a.product_id).executeTakeFirstOrThrow()).title;
    await db.updateTable("product").set({ title: '=HYPERLINK("https://evil.example")' }).where("id", "=", b.product_id).execute();
    // 1 April 2025: two of A at $25.00 and one of B at $9.99; B refunded on the 2nd.
    const order = await insertOrder(db, {
      userId: null,
      email: "reports-buyer@example.org",
      status: "paid",
      createdAt: "2025-04-01T10:00:00.000Z",
      lines: [
        { availabilityId: a.id, quantity: 2 },
        { availabilityId: b.id, quantity: 1 },
      ],
    });
    for (const [position, unit, quantity] of [
      [1, 2_500, 2],
      [2, 999, 1],
    ] as const)
      await db
        .updateTable("store_order_line")
        .set({ unit_price_cents: unit, line_total_cents: unit * quantity })
        .where("order_id", "=", order.id)
        .where("position", "=", position)
        .execute();
    expect(await priceOrder(db, order.id, {})).toBe(5_999);
    const refundId = await insertRefund(db, {
      orderId: order.id,
      status: "succeeded",
      at: "2025-04-02T11:00:00.000Z",
      amountCents: 999,
      lines: [[2, 1]],
    });
    // A Digital plan running through April, and a complimentary Executive one granted on the 1st.
    for (const [planId, roleCode, reference, start] of [
      ["digital", "MRSUB_GOOD", `chk_${refundId}`, "2025-03-01"],
      [null, "MRSUB_EXECUTIVE", "comp:reports", "2025-04-01"],
    ] as const)
      await db
        .insertInto("subscription")
        .values({
          id: crypto.randomUUID(),
          user_id: await readerId("subscriber"),
          role_code: roleCode,
          source: "web",
          reference,
          status: "active",
          access_start: `${start}T00:00:00.000Z`,
          access_end: "2025-05-01T00:00:00.000Z",
          created_at: `${start}T00:00:00.000Z`,
          plan_id: planId,
          billing_status: planId ? "active" : null,
        })
        .execute();

    const query = "from=2025-04-01&to=2025-04-02";
    const page = await store.page(`/desk/reports?${query}`);
    expect(page("h1").text()).toBe("Reports");
    expect(page("input[name=from]").attr("value")).toBe("2025-04-01");
    expect(page("input[name=to]").attr("value")).toBe("2025-04-02");
    expect(tableRows(page, "Sales by day")).toEqual([
      ["2025-04-01", "1", "3", "$59.99", "$0.00", "$59.99"],
      ["2025-04-02", "0", "0", "$0.00", "$9.99", "-$9.99"],
      ["Total", "1", "3", "$59.99", "$9.99", "$50.00"],
    ]);
    expect(tableRows(page, "Sales by product")).toEqual([
      [aTitle, "1", "2", "$50.00", "0", "$0.00", "$50.00"],
      ['=HYPERLINK("https://evil.example")', "1", "1", "$9.99", "1", "$9.99", "$0.00"],
    ]);
    expect(tableRows(page, "Subscriptions by tier")).toEqual([
      ["Digital", "1", "0", "0", "0", "0", "0.0%", "$12.00"],
      ["Executive", "1", "1", "0", "1", "0", "—", "$0.00"],
      ["All tiers", "2", "1", "0", "1", "0", "0.0%", "$12.00"],
    ]);
    expect(page("main").text()).toContain(
      "Complimentary subscriptions and print subscriptions count as active but add no revenue to the MRR.",
    );
    // The page rolled its closed days up (ADR 090): the exports below read them from the roll-up.
    expect(
      (await db.selectFrom("report_day").select("day").where("day", "in", ["2025-04-01", "2025-04-02"]).orderBy("day").execute()).map(
        (d) => d.day,
      ),
    ).toEqual(["2025-04-01", "2025-04-02"]);

    const hrefs = page("main a[download]")
      .map((_, el) => page(el).attr("href"))
      .get();
    expect(hrefs).toEqual([
      `/desk/reports/sales.csv?${query}`,
      `/desk/reports/subscriptions.csv?${query}`,
      `/desk/reports/funnel.csv?${query}`,
    ]);
    const sales = await store.request(hrefs[0]!);
    expect(sales.status).toBe(200);
    expect(sales.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(sales.headers.get("content-disposition")).toBe('attachment; filename="sales-2025-04-01-to-2025-04-02.csv"');
    expect(sales.headers.get("cache-control")).toBe("no-store");
    const salesLines = await csvLines(sales);
    expect(salesLines[0]).toBe("Day (UTC),Product,Product id,Orders paid,Units sold,Gross (USD),Units refunded,Refunds (USD),Net (USD)");
    expect(salesLines.slice(1).sort()).toEqual(
      [
        `2025-04-01,${aTitle},${a.product_id},1,2,50,0,0,50`,
        `2025-04-01,"'=HYPERLINK(""https://evil.example"")",${b.product_id},1,1,9.99,0,0,9.99`,
        `2025-04-02,"'=HYPERLINK(""https://evil.example"")",${b.product_id},0,0,0,1,9.99,-9.99`,
      ].sort(),
    );
    const subscriptions = await store.request(hrefs[1]!);
    expect(subscriptions.headers.get("content-disposition")).toBe('attachment; filename="subscriptions-2025-04-01-to-2025-04-02.csv"');
    expect(await csvLines(subscriptions)).toEqual([
      "Tier,Active,Of which complimentary,Of which print,New,Cancelled,Paying at start,Churn (%),MRR (USD)",
      "Digital,1,0,0,0,0,1,0,12",
      "Executive,1,1,0,1,0,0,,0",
      "All tiers,2,1,0,1,0,1,0,12",
    ]);

    const bad = await store.page("/desk/reports?from=2025-04-09&to=2025-04-01");
    expect(bad("[role=alert]").text()).toBe(
      "The dates could not be read, so the last 30 days are shown: dates are days such as 2026-05-14, the first no later than the last, at most 366 days apart.",
    );
  });

  it("counts a guest walled on an article, their registration from the wall's form and their subscription from the subscribe wall, by the wall's tag", async () => {
    const latest = await new Reader(server.url).page("/the-latest");
    const articles = [
      ...new Set(
        latest("main a[href]")
          .map((_, a) => latest(a).attr("href"))
          .get()
          .filter((href) => /^\/\d{4}\/\d{2}\/[^/?#]+$/.test(href)),
      ),
    ];
    const reader = new Reader(server.url);
    /** Reads the articles in turn until one shows this wall. */
    const untilWall = async (wall: string) => {
      for (const path of articles) {
        const page = await reader.page(path);
        if (page("[data-wall]").attr("data-wall") === wall) return page;
      }
      throw new Error(`no ${wall} wall`);
    };

    const walled = await untilWall("registration");
    const form = walled("form:has(input[name=wallTag])");
    const tag = form.find("input[name=wallTag]").attr("value")!;
    expect(tag).toMatch(/^paywall-/);
    expect(form.attr("action")).toContain(`wallTag=${tag}`);
    const fields = Object.fromEntries(
      form
        .find("input[type=hidden]")
        .map((_, input) => [[walled(input).attr("name"), walled(input).attr("value") ?? ""]])
        .get() as [string, string][],
    );
    const registered = await reader.request(form.attr("action")!, {
      form: {
        ...fields,
        firstName: "Wanda",
        lastName: "Wall",
        emailAddress: `wanda.${crypto.randomUUID()}@example.org`,
        password: PASSWORD,
      },
    });
    expect(registered.status).toBe(303);

    // The same reader, now out of a registered reader's free articles, subscribes from the subscribe wall.
    const subscribeWall = await untilWall("subscribe");
    const offers = subscribeWall("[data-wall=subscribe] a").attr("href")!;
    expect(offers).toMatch(/^\/subscriptions\?ab=paywall-/);
    const subscribeTag = new URL(offers, server.url).searchParams.get("ab")!;
    const checkout = await reader.request(`/subscriptions/checkout?plan=digital&ab=${subscribeTag}`, {
      form: { countryCode: "GB", ab: subscribeTag },
    });
    expect(checkout.status).toBe(303);
    const pay = await reader.request(new URL(checkout.headers.get("location")!, server.url).pathname, {
      form: { cardNumber: "4242 4242 4242 4242" },
    });
    expect(pay.status).toBe(303);
    const back = new URL(pay.headers.get("location")!, server.url);
    await reader.request(back.pathname + back.search);
    const expected = new Map<string, number[]>([[tag, [1, 1, 0, 0]]]);
    const atSubscribe = expected.get(subscribeTag) ?? [0, 0, 0, 0];
    expected.set(subscribeTag, [atSubscribe[0]!, atSubscribe[1]!, 1, 1]);
    const rate = (n: number, of: number) => (of > 0 ? `${((n / of) * 100).toFixed(1)}%` : "—");
    const csvRate = (n: number, of: number) => (of > 0 ? String(Math.round((n / of) * 1000) / 10) : "");
    const rows = [...expected].sort(([a], [b]) => a.localeCompare(b));

    // The last 30 days, unless asked.
    const page = await store.page("/desk/reports");
    const today = new Date().toISOString().slice(0, 10);
    expect(page("input[name=to]").attr("value")).toBe(today);
    expect(page("input[name=from]").attr("value")).toBe(new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(tableRows(page, "The meter funnel by A/B tag")).toEqual([
      ...rows.map(([t, [g, r, w, n]]) => [t, String(g), String(r), rate(r!, g!), String(w), String(n), rate(n!, w!)]),
      ["All tags", "1", "1", "100.0%", "1", "1", "100.0%"],
    ]);
    const csv = await store.request(page("a:contains('Download the funnel (CSV)')").attr("href")!);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="funnel-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(await csvLines(csv)).toEqual([
      "A/B tag,Guests walled,Registrations from the wall,Registration rate (%),Readers shown the subscribe wall,Subscriptions from the wall,Subscription rate (%)",
      ...rows.map(([t, [g, r, w, n]]) => [t, g, r, csvRate(r!, g!), w, n, csvRate(n!, w!)].join(",")),
      "All tags,1,1,100,1,1,100",
      "No tag (not from a wall),,,,,0,",
    ]);
  });
});
