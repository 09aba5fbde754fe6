import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { markOrderPaid } from "~/server/store/order-payment";
import { deskPeople, uploadPicture } from "~/tests/helpers/desk-staff";
import { pngOf } from "~/tests/helpers/images";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { insertOrder } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The store's catalogue and offers at the desk (ADR 091) through the production build, as plain
// form posts without scripts: who may reach the pages, a product and its format made and sold at
// once, a price scheduled, a stale save refused, a cover and a download file uploaded, a format
// retired (its page says so and the cart refuses it), promo codes made and disabled, and every
// change in the audit log.

let connection: IsolatedConnection;
let db: Database;
let server: RunningServer;
let store: Reader;
let storeName: string;
let admin: Reader;
let editor: Reader;

beforeAll(async () => {
  connection = await isolatedConnection("desk-store-catalogue");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  const people = deskPeople(server.url, db);
  const member = await people.staffMember(["store"], "Stella");
  store = member.reader;
  storeName = member.name;
  admin = (await people.staffMember(["admin"], "Ada")).reader;
  editor = (await people.staffMember(["editor"], "Edith")).reader;
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
});

const PRODUCT = {
  title: "The Long Table: Meetings That Decide",
  productType: "Book",
  topic: "Strategy",
  authors: "Ines Moreau, Tom Hale",
  summary: "How to run the meeting where the decision is actually made.",
  description: "A practical book on agendas, dissent and the last ten minutes of a meeting.",
  published: "2026-09-01",
  pages: "212",
};

const FORMAT = {
  format: "PDF",
  code: "pdf",
  lineType: "DIGITAL",
  language: "English",
  status: "on-sale",
  listPrice: "18.50",
  intent: "save",
};

const errorsOf = async (res: Response) =>
  cheerio
    .load(await res.text())("[role=alert]")
    .text();

const audited = (subject: string) =>
  db.selectFrom("desk_audit").select(["action", "actor"]).where("subject", "=", subject).orderBy("at").orderBy("id").execute();

/** Makes the product and one format through the desk's forms; answers their ids and the format's page. */
async function productWithFormat(title: string, format: Record<string, string> = FORMAT) {
  const made = await store.request("/desk/products/new", { form: { ...PRODUCT, title } });
  expect(made.status).toBe(303);
  const productId = Number(/^\/desk\/products\/(\d+)\?saved=created$/.exec(made.headers.get("location") ?? "")?.[1]);
  const added = await store.request(`/desk/products/${productId}/formats/new`, { form: format });
  expect(added.status).toBe(303);
  const formatPath = added.headers.get("location")!.replace(/\?.*$/, "");
  const availabilityId = Number(formatPath.split("/").at(-1));
  const { slug } = await db.selectFrom("product").select("slug").where("id", "=", productId).executeTakeFirstOrThrow();
  return { productId, availabilityId, slug, formatPath, page: `/product/${slug}/${availabilityId}` };
}

describe(`the store's catalogue at the desk (${dialectName})`, () => {
  it("gives guests and readers the 404 and an editor the desk's 403, for every page and post, writing nothing", async () => {
    const { reader } = await deskPeople(server.url, db).signedInReader("Plain");
    const addresses = [
      "/desk/products",
      "/desk/products/new",
      "/desk/products/1",
      "/desk/products/1/cover",
      "/desk/products/1/formats/new",
      "/desk/products/1/formats/1001",
      "/desk/offers",
      "/desk/offers/promo-codes/new",
      "/desk/offers/promo-codes/WELCOME10",
      "/desk/offers/vouchers/GIFT-LEDGER-0001",
    ];
    for (const [asker, status] of [
      [new Reader(server.url), 404],
      [reader, 404],
      [editor, 403],
    ] as const)
      for (const address of addresses) {
        expect((await asker.request(address)).status, address).toBe(status);
        expect((await asker.request(address, { form: { ...PRODUCT, intent: "disable", version: "1" } })).status, address).toBe(status);
      }
    expect(await db.selectFrom("promo_code").select("disabled_at").where("code", "=", "WELCOME10").executeTakeFirstOrThrow()).toEqual({
      disabled_at: null,
    });
    // The store's pages are in its desk bar.
    const home = await store.page("/desk");
    expect(
      home("nav[aria-label=Desk] a")
        .map((_, a) => home(a).attr("href"))
        .get(),
    ).toEqual(["/desk/orders", "/desk/products", "/desk/offers", "/desk/reports"]);
  });

  it("sells a product made at the desk at once, prices it anew from a moment, and audits each step", async () => {
    const bad = await store.request("/desk/products/new", { form: { ...PRODUCT, title: "", topic: "No Such Topic", pages: "many" } });
    expect(bad.status).toBe(400);
    const badText = await errorsOf(bad);
    expect(badText).toContain("Enter a title of up to 300 characters.");
    expect(badText).toContain("Enter the number of pages, a whole number from 0 to 10000.");

    const { productId, availabilityId, slug, formatPath, page } = await productWithFormat("The Long Table: Meetings That Decide");
    const listed = await store.page(`/desk/products?q=${encodeURIComponent("long table")}&status=on-sale`);
    expect(listed(`tbody a[href='/desk/products/${productId}']`)).toHaveLength(1);
    const shop = cheerio.load(await (await fetch(`${server.url}${page}`)).text());
    expect(shop("h1").text()).toBe("The Long Table: Meetings That Decide");
    expect(shop("main").text()).toContain("$18.50");
    expect(shop("button:contains('Add to Cart')")).toHaveLength(1);

    // A guest buys it at once: in their cart at the list price.
    const guest = new Reader(server.url);
    const added = await guest.request("/shopping-cart", {
      form: { intent: "add", productId: String(availabilityId), type: "Digital", quantity: "1" },
    });
    expect(added.status).toBe(303);
    const cart = await guest.page("/shopping-cart");
    expect(cart("main").text()).toContain("$18.50");
    expect(cart("#cart-prices").text()).toContain("Your order keeps the prices it is placed at.");

    // A price from the past is refused; one from now is in force at once, for shop and cart alike.
    const past = await store.request(formatPath, { form: { intent: "price", price: "21", startsAt: "2020-01-01T09:00" } });
    expect(past.status).toBe(422);
    expect(await errorsOf(past)).toContain("Enter a time from now on, in UTC, or leave it empty for now.");
    const priced = await store.request(formatPath, { form: { intent: "price", price: "21.00", startsAt: "" } });
    expect(priced.status).toBe(303);
    expect((await (await fetch(`${server.url}${page}`)).text()).includes("$21.00")).toBe(true);
    expect((await guest.page("/shopping-cart"))("main").text()).toContain("$21.00");
    const later = await store.request(formatPath, { form: { intent: "price", price: "25", startsAt: "2099-01-01T09:00" } });
    expect(later.status).toBe(303);
    const desk = await store.page(formatPath);
    expect(desk("main").text()).toContain("Price now: $21.00");
    expect(desk("table tbody tr").last().text()).toContain("2099-01-01 09:00 UTC");
    expect(desk("table tbody tr").last().text()).toContain("Scheduled");

    expect(await audited(`product:${slug}`)).toEqual([
      { action: "product.create", actor: expect.stringMatching(/^stella\./) },
      { action: "availability.create", actor: expect.stringMatching(/^stella\./) },
      { action: "price.schedule", actor: expect.stringMatching(/^stella\./) },
      { action: "price.schedule", actor: expect.stringMatching(/^stella\./) },
    ]);
  });

  it("refuses a stale save with who saved and when, keeping the editor's text, and saves knowingly after", async () => {
    const { productId } = await productWithFormat("Stale Ledger");
    const here = `/desk/products/${productId}`;
    const first = await admin.request(here, { form: { ...PRODUCT, title: "Stale Ledger", pages: "300", version: "1" } });
    expect(first.status).toBe(303);
    const stale = await store.request(here, { form: { ...PRODUCT, title: "Stale Ledger, Mine", version: "1" } });
    expect(stale.status).toBe(409);
    const page = cheerio.load(await stale.text());
    expect(page("form").text() + page("main").text()).toMatch(
      /This product was changed by Ada Desk at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC since you opened it\./,
    );
    expect(page("input[name=title]").attr("value")).toBe("Stale Ledger, Mine");
    expect(page("input[name=version]").attr("value")).toBe("2");
    expect(page("main").text()).toContain("Saved since you opened it (version 2)");
    const again = await store.request(here, { form: { ...PRODUCT, title: "Stale Ledger, Mine", version: "2" } });
    expect(again.status).toBe(303);
    expect(
      await db.selectFrom("product").select(["title", "version", "updated_by_name"]).where("id", "=", productId).executeTakeFirstOrThrow(),
    ).toEqual({
      title: "Stale Ledger, Mine",
      version: 3,
      updated_by_name: storeName,
    });
  });

  it("takes a cover and a download file, retires the format (its page says so, the cart refuses it) and the order keeps its download", async () => {
    const { productId, availabilityId, slug, formatPath, page } = await productWithFormat("Retiring Notes");
    const cover = await uploadPicture(
      store,
      `/desk/products/${productId}/cover`,
      { bytes: await pngOf(600, 800), name: "c.png", type: "image/png" },
      "A red cover",
    );
    expect(cover.status).toBe(303);
    const shop = cheerio.load(await (await fetch(`${server.url}${page}`)).text());
    expect(shop("picture img[alt='Cover of Retiring Notes']").attr("src")).toMatch(/^\/images\//);

    const pdf = Buffer.from("%PDF-1.4\n% a test file\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
    const form = new FormData();
    form.set("intent", "download");
    form.set("file", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "notes.pdf");
    const uploaded = await fetch(`${server.url}${formatPath}/file`, {
      method: "POST",
      body: form,
      headers: { Cookie: store.cookieHeader(), Origin: server.url },
      redirect: "manual",
    });
    expect(uploaded.status).toBe(303);

    const order = await insertOrder(db, {
      userId: null,
      email: "retiring-buyer@example.org",
      status: "pending_payment",
      createdAt: new Date().toISOString(),
      lines: [{ availabilityId }],
    });
    await markOrderPaid(db, order.id);

    const version = (await store.page(formatPath))("form:has(input[name=intent][value=save]) input[name=version]").attr("value")!;
    const retired = await store.request(formatPath, { form: { ...FORMAT, status: "retired", version } });
    expect(retired.status).toBe(303);
    const gone = cheerio.load(await (await fetch(`${server.url}${page}`)).text());
    expect(gone("[role=status]").text()).toContain("This product is no longer sold, so it cannot be added to your cart.");
    expect(gone("button:contains('Add to Cart')")).toHaveLength(0);
    const refused = await new Reader(server.url).request("/shopping-cart", {
      form: { intent: "add", productId: String(availabilityId), type: "Digital", quantity: "1" },
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This item is no longer sold and cannot be added to your cart.");

    const download = await fetch(`${server.url}/download/order/${order.id}/1?key=${encodeURIComponent(order.accessToken)}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${slug}.pdf"`);
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await audited(`product:${slug}`)).map((a) => a.action)).toEqual([
      "product.create",
      "availability.create",
      "product.cover",
      "availability.file",
      "availability.save",
    ]);
  });

  it("adds a promo code with limits, lists it and its uses, disables it (audited), and refuses another site's post", async () => {
    const bad = await store.request("/desk/offers/promo-codes/new", {
      form: { code: "x", description: "", percentOff: "5", startsOn: "2026-02-30" },
    });
    expect(bad.status).toBe(400);
    const badText = await errorsOf(bad);
    for (const message of ["Enter a code of 3 to 40 letters, digits and hyphens.", "Enter the first day it works as YYYY-MM-DD."])
      expect(badText).toContain(message);
    const both = await store.request("/desk/offers/promo-codes/new", {
      form: { code: "BOTH-26", description: "Both", percentOff: "5", amountOff: "5", startsOn: "2026-03-01" },
    });
    expect(both.status).toBe(400);
    expect(await errorsOf(both)).toContain("Enter a percentage off or an amount off: one of them.");
    const made = await store.request("/desk/offers/promo-codes/new", {
      form: {
        code: "spring-26",
        description: "10% off in spring",
        percentOff: "10",
        startsOn: "2026-03-01",
        endsOn: "2026-05-31",
        maxUses: "50",
        maxUsesPerReader: "1",
      },
    });
    expect(made.status).toBe(303);
    expect(made.headers.get("location")).toBe("/desk/offers/promo-codes/SPRING-26?saved=created");
    const taken = await store.request("/desk/offers/promo-codes/new", {
      form: { code: "SPRING-26", description: "Again", percentOff: "5", startsOn: "2026-03-01" },
    });
    expect(taken.status).toBe(422);
    expect(await errorsOf(taken)).toContain("Another promo code is called this: choose another.");
    const offers = await store.page("/desk/offers");
    expect(offers("tbody tr:has(a[href='/desk/offers/promo-codes/SPRING-26'])").text()).toContain("0 of 50");

    const foreign = await store.request("/desk/offers/promo-codes/SPRING-26", {
      form: { intent: "disable" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    const disabled = await store.request("/desk/offers/promo-codes/SPRING-26", { form: { intent: "disable" } });
    expect(disabled.status).toBe(303);
    const page = await store.page("/desk/offers/promo-codes/SPRING-26?saved=disabled");
    expect(page("main").text()).toContain("Disabled");
    expect(page("button:contains('Enable the promo code again')")).toHaveLength(1);
    expect(page("#uses-heading").parent().text()).toContain("No order has used this promo code yet.");
    expect((await audited("promo-code:SPRING-26")).map((a) => a.action)).toEqual(["promo-code.create", "promo-code.disable"]);
  });
});
