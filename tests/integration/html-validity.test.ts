import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader, registeredReader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// Every page type of the production build, as its readers get it (a guest, a metered-out guest,
// a subscriber, a shopper with a full cart at each checkout step, and the desk's reports for the
// store, after those readers' orders and walls), checked by the Nu HTML Checker
// (vnu-jar, on the machine's Java) in one run: starting its JVM costs about two seconds.

const VNU_JAR = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");
/** Seed catalogue: the first book's hardcover (ships) and its ebook (digital). */
const HARDCOVER = { productId: "1001", type: "Ship", quantity: "1", productUrl: "/product/the-patient-ledger/1001", format: "Hardcover" };
const EBOOK = { productId: "1002", type: "Digital", productUrl: "/product/the-patient-ledger/1002", format: "Ebook" };
/** More articles than a guest's monthly meter allows (spec: 4). */
const PAST_THE_METER = 6;

interface Message {
  type: "error" | "info" | "non-document-error";
  subType?: "warning" | "fatal";
  url: string;
  message: string;
  lastLine?: number;
  extract?: string;
}

let server: RunningServer;
let connection: IsolatedConnection;
let db: Database;
let folder: string;
/** Page type → its HTML as the server sent it. */
const pages = new Map<string, string>();
let messages: Message[] = [];

async function html(reader: Reader, path: string, status = 200): Promise<string> {
  let res = await reader.request(path);
  const location = res.headers.get("location") ?? "";
  // An article's first-visit cookie check, which a browser follows.
  if (res.status === 302 && location.includes("cookie-check=")) res = await reader.request(location);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type"), path).toContain("text/html");
  return res.text();
}

async function keep(name: string, reader: Reader, path: string, status = 200): Promise<cheerio.CheerioAPI> {
  const text = await html(reader, path, status);
  pages.set(name, text);
  return cheerio.load(text);
}

function firstHref($: cheerio.CheerioAPI, pattern: RegExp): string {
  const href = $("main a[href]")
    .map((_, a) => $(a).attr("href"))
    .get()
    .find((h) => pattern.test(h));
  if (!href) throw new Error(`no link matching ${pattern}`);
  return href;
}

const pathOf = (location: string | null) => {
  const url = new URL(location!, server.url);
  return url.pathname + url.search;
};

async function posted(reader: Reader, path: string, form: Record<string, string>): Promise<string> {
  const res = await reader.request(path, { form });
  expect(res.status, `POST ${path}`).toBe(303);
  return pathOf(res.headers.get("location"));
}

async function guestPages() {
  const guest = new Reader(server.url);
  await keep("home", guest, "/");
  const $stream = await keep("stream", guest, "/the-latest");
  await keep("stream, page 2", guest, "/the-latest?page=2");
  await keep("stream, more items loaded", guest, "/the-latest?loaded=2");
  const articles = $stream("main a[href]")
    .map((_, a) => $stream(a).attr("href"))
    .get()
    .filter((h, i, all) => /^\/\d{4}\/\d{2}\/[a-z0-9-]+$/.test(h) && all.indexOf(h) === i);
  await keep("article, a guest's first", guest, articles[0]!);
  const metered = new Reader(server.url);
  for (const article of articles.slice(0, PAST_THE_METER)) await html(metered, article);
  await keep("article, a metered-out guest's (paywall)", metered, articles[PAST_THE_METER]!);
  const $topics = await keep("topics", guest, "/topics");
  await keep("topic", guest, firstHref($topics, /^\/topic\//));
  await keep("search", guest, "/search?q=strategy");
  await keep("search, no results", guest, "/search?q=zzxqvw");
  const $videos = await keep("video index", guest, "/video");
  const video = firstHref($videos, /^\/video\/\d+/);
  await keep("video", guest, video);
  await keep("video, embedded elsewhere", guest, video.replace(/^\/video\//, "/video/embed/"));
  const $podcasts = await keep("podcasts", guest, "/podcasts");
  const $series = await keep("podcast series", guest, firstHref($podcasts, /^\/podcasts\/[^/?]+$/));
  await keep("podcast episode", guest, firstHref($series, /^\/podcasts\/[^/?]+\/\d+-/));
  const $magazine = await keep("magazine", guest, "/magazine");
  await keep("magazine year", guest, firstHref($magazine, /^\/magazine\?year=\d{4}$/));
  await keep("magazine issue", guest, firstHref($magazine, /^\/archive-toc\//));
  const $store = await keep("store", guest, "/store");
  await keep("store, filtered", guest, "/store?type=book");
  await keep("product", guest, firstHref($store, /^\/product\//));
  await keep("reading lists", guest, "/reading-lists");
  await keep("subscriptions", guest, "/subscriptions");
  await keep("subscription checkout, a guest's", guest, "/subscriptions/checkout?plan=digital");
  await keep("newsletters", guest, "/email-newsletters");
  await keep("privacy policy", guest, "/privacy-policy");
  await keep("account deleted", guest, "/account-deleted");
  await keep("subscriber help", guest, "/subscriber-help");
  await keep("subscriber registration", guest, "/subscriber-registration");
  await keep("menu", guest, "/menu?return=%2Ftopics");
  await keep("sign-in", guest, "/sign-in?redirectTo=%2Ftopics");
  await keep("register", guest, "/register");
  await keep("forgot password", guest, "/forgot-password");
  await keep("shopping cart, empty", guest, "/shopping-cart");
  await keep("not found", guest, "/no/such/page", 404);
  await keep("article not found", guest, "/2025/01/no-such-article", 404);
}

async function checkoutPages() {
  const shopper = new Reader(server.url);
  const added = await posted(shopper, "/shopping-cart", { intent: "add", referral: "", ...HARDCOVER });
  await posted(shopper, "/shopping-cart", { intent: "add", referral: "", ...EBOOK });
  await keep("added to cart", shopper, added);
  await keep("shopping cart, with items", shopper, "/shopping-cart");
  await keep("checkout: shipping and payment", shopper, "/shipping-payment");
  const review = await posted(shopper, "/shipping-payment", {
    intent: "continue",
    addressChoice: "new",
    ...SHIPPING_ADDRESS,
    email: `valid.${Date.now()}@example.org`,
    shippingMethod: "standard",
  });
  const $review = await keep("checkout: review order", shopper, review);
  const payment = await posted(shopper, review, {
    idempotencyKey: String($review("input[name=idempotencyKey]").val()),
    shownTotal: String($review("input[name=shownTotal]").val()),
  });
  await keep("checkout: payment (sandbox provider)", shopper, payment);
  const thanks = await posted(shopper, payment, { cardNumber: "4242 4242 4242 4242" });
  const $thanks = await keep("checkout: thank you", shopper, thanks);
  await keep("order and receipt", shopper, firstHref($thanks, /^\/order\//));
}

/** The desk's reports (ADR 090) for the store, once the readers above have bought, met walls and subscribed. */
async function deskPages() {
  const { reader: store } = await deskPeople(server.url, db).staffMember(["store"]);
  await keep("desk: reports", store, "/desk/reports");
}

async function subscriberPages() {
  const reader = await registeredReader(server.url);
  await keep("subscription checkout, a reader's", reader, "/subscriptions/checkout?plan=digital");
  await keep("subscription checkout: the tax before paying", reader, "/subscriptions/checkout?plan=digital&countryCode=US&region=NY");
  const payment = await posted(reader, "/subscriptions/checkout?plan=digital", { countryCode: "US", region: "NY" });
  const complete = await posted(reader, payment, { cardNumber: "4242 4242 4242 4242" });
  const receipt = pathOf((await reader.request(complete)).headers.get("location"));
  await keep("subscription receipt", reader, receipt);
  await keep("welcome", reader, "/welcome");
  const $stream = await keep("stream, a subscriber's", reader, "/the-latest");
  await keep("article, a subscriber's", reader, firstHref($stream, /^\/\d{4}\/\d{2}\//));
  await keep("my library", reader, "/my-library");
  await keep("my library: activity", reader, "/my-library/activity");
  await keep("my library: reading history", reader, "/my-library/history/reading");
  await keep("my library: following", reader, "/my-library/topics");
  await keep("my account", reader, "/my-account");
  await keep("my account: notes", reader, "/my-account/notes");
  await keep("my account: gifts", reader, "/my-account/gifts");
  await keep("my account: your data", reader, "/my-account/data");
  await keep("my account: delete, a plan to cancel first", reader, "/my-account/delete");
  await keep("my account: delete", await registeredReader(server.url), "/my-account/delete");
  await keep("subscription and billing", reader, "/my-account/billing");
}

/** Runs the checker once over every page kept; its JSON report goes to stderr. */
function checkAll(files: string[]): Promise<Message[]> {
  return new Promise((resolve, reject) => {
    execFile("java", ["-jar", VNU_JAR, "--format", "json", ...files], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      try {
        resolve((JSON.parse(stderr) as { messages: Message[] }).messages);
      } catch {
        reject(error ?? new Error(`the Nu HTML Checker's report could not be read: ${stderr.slice(0, 2000)}`));
      }
    });
  });
}

beforeAll(async () => {
  connection = await isolatedConnection("html-validity");
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000" }, "production", connection);
  db = connect(connection);
  await guestPages();
  await checkoutPages();
  await subscriberPages();
  await deskPages();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "html-validity-"));
  const files = [...pages].map(([name, text]) => {
    const file = path.join(folder, `${name.replace(/[^a-z0-9]+/gi, "-")}.html`);
    fs.writeFileSync(file, text);
    return file;
  });
  messages = await checkAll(files);
}, 300_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

describe("the Nu HTML Checker", () => {
  it("checked every page type", () => {
    expect(pages.size).toBeGreaterThan(50);
    expect(messages.filter((m) => m.type === "non-document-error")).toEqual([]);
  });

  it("finds no error on any page type", () => {
    const errors = new Map<string, string[]>();
    for (const m of messages.filter((m) => m.type === "error")) {
      const page = path.basename(new URL(m.url).pathname, ".html");
      errors.set(page, [...(errors.get(page) ?? []), `line ${m.lastLine}: ${m.message} ${m.extract ?? ""}`]);
    }
    expect(Object.fromEntries(errors)).toEqual({});
  });
});
