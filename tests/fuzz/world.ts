import * as cheerio from "cheerio";
import { connect, type ConnectionOptions, type Database } from "~/server/db/connection";
import { createApiKey } from "~/server/desk/api-keys";
import { createArticle } from "~/server/desk/articles";
import { COMMAND_LINE } from "~/server/desk/audit";
import { createIssue } from "~/server/newsletters/issues";
import type { ArticleFields } from "~/shared/article-fields";
import { addStaff } from "~/server/desk/staff";
import { totpCode } from "~/server/desk/totp";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { selectFromServer } from "~/tests/helpers/server-db";
import { Browser, location } from "./client";
import { SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";

// The readers the fuzz run needs: A, whose data must come through unchanged, and B, who posts
// hostile bodies (with A's ids among them). Both subscribe so that subscriber-only actions
// (notes, gifts) are reached; A also has a cart line, a folder with a saved article, a note, a
// gift link and an order awaiting payment. An admin at the desk (C, past the second factor) sends
// the desk's forms, and an admin's API key calls the Admin API.

export const PASSWORD = "Lantern5!quay";
/** Seed catalogue: a hardcover that ships. */
const HARDCOVER = "1001";

export interface Ids {
  userId: string;
  email: string;
  cartLineId: string;
  folderId: string;
  folderSlug: string;
  itemId: string;
  noteId: string;
  giftId: string;
  orderId: string;
  /** Its number, by which the desk and the Admin API name it. */
  orderNumber: string;
  /** The key the order awaiting payment was placed with. */
  orderKey: string;
  sandboxId: string;
  /** The subscription checkout the reader paid. */
  checkoutId: string;
}

export interface World {
  baseUrl: string;
  database: ConnectionOptions;
  /** A gated article's path and id. */
  article: { path: string; id: string };
  owner: Ids;
  hostile: Browser & { ids: Ids };
  guest: Browser;
  /** An admin inside the desk. */
  staff: Browser & { userId: string; email: string };
  /** Staff API keys: an admin's, which the Admin API's calls carry, and one for the desk's revoke form to aim at. */
  keys: { admin: string; revocableId: string };
  /** The draft the Admin API's calls change, publish and unpublish. */
  deskArticle: { id: string };
  /** A draft for the desk's article forms to aim at (not reader A's article), its first revision, and its byline and topics. */
  draft: { id: string; revisionId: string; authors: string; topics: string };
  /** A draft issue of a newsletter for the desk's newsletter forms to aim at. */
  issue: { id: string };
}

let counter = 0;

async function register(baseUrl: string): Promise<{ browser: Browser; email: string }> {
  const browser = new Browser(baseUrl);
  counter += 1;
  const email = `fuzz${counter}.${process.pid}.${Date.now()}@example.org`;
  await browser.expectStatus("/register", { firstName: "Nell", lastName: "Ransome", emailAddress: email, password: PASSWORD }, 303);
  return { browser, email };
}

async function subscribe(browser: Browser): Promise<void> {
  const checkout = await browser.expectStatus("/subscriptions/checkout?plan=digital", { countryCode: "GB" }, 303);
  const paid = await browser.expectStatus(location(checkout), { cardNumber: "4242 4242 4242 4242" }, 303);
  await browser.request(location(paid));
}

/** Gives a reader one of everything a hostile reader could aim at, and reads back the ids. */
async function furnish(browser: Browser, email: string, database: ConnectionOptions, article: World["article"]): Promise<Ids> {
  await subscribe(browser);
  await browser.expectStatus(
    "/shopping-cart",
    {
      intent: "add",
      productId: HARDCOVER,
      type: "Ship",
      quantity: "1",
      referral: "",
      productUrl: "/product/the-patient-ledger/1001",
      format: "Hardcover",
      productPrice: "32.00",
    },
    303,
  );
  const folder = await browser.expectStatus(
    "/my-library?index",
    { intent: "create-folder", name: `Board prep ${counter}`, description: "" },
    303,
  );
  await browser.expectStatus(`/my-library/save?type=article&id=${article.id}`, { type: "article", id: article.id, folderId: "" }, 303);
  await browser.expectStatus(article.path, { intent: "add-note", paragraph: "0", quote: "", note: "Read before the board meeting" }, 303);
  await browser.expectStatus("/api/article-gift/give-gift", { url: article.path, _format: "json" }, 200);
  const address = SHIPPING_ADDRESS;
  await browser.expectStatus(
    "/shipping-payment",
    { intent: "continue", addressChoice: "new", ...address, shippingMethod: "standard" },
    303,
  );
  const $ = cheerio.load(await (await browser.expectStatus("/review-order", undefined, 200)).text());
  await browser.expectStatus(
    "/review-order",
    { idempotencyKey: String($("input[name=idempotencyKey]").val()), shownTotal: String($("input[name=shownTotal]").val()) },
    303,
  );

  const one = async (sql: string, params: string[]) => {
    const [row] = await selectFromServer<{ id: string }>(database, sql, params);
    if (!row) throw new Error(`setup found nothing for: ${sql}`);
    return String(row.id);
  };
  const userId = await one("SELECT id FROM app_user WHERE email = ?", [email]);
  const orderId = await one("SELECT id FROM store_order WHERE user_id = ?", [userId]);
  return {
    userId,
    email,
    cartLineId: await one("SELECT l.id FROM cart_line l JOIN cart c ON c.id = l.cart_id WHERE c.user_id = ?", [userId]),
    folderId: await one("SELECT id FROM library_folder WHERE user_id = ? AND read_only = 0", [userId]),
    folderSlug: new URL(folder.headers.get("location")!, "http://x").pathname.split("/").pop()!,
    itemId: await one("SELECT id FROM library_item WHERE user_id = ?", [userId]),
    noteId: await one("SELECT id FROM annotation WHERE user_id = ?", [userId]),
    giftId: await one("SELECT id FROM gift_link WHERE user_id = ?", [userId]),
    orderId,
    orderNumber: await one("SELECT number AS id FROM store_order WHERE id = ?", [orderId]),
    orderKey: await one("SELECT idempotency_key AS id FROM store_order WHERE id = ?", [orderId]),
    sandboxId: await one("SELECT id FROM sandbox_payment WHERE reference = ?", [orderId]),
    checkoutId: await one("SELECT id FROM subscription_checkout WHERE user_id = ?", [userId]),
  };
}

const FUZZ_ARTICLE: ArticleFields = {
  title: "A draft for the fuzz run",
  dek: "The Admin API's calls change it.",
  subDek: "",
  summary: "Saved, published and unpublished by hostile calls.",
  body: "One paragraph.\n\nAnother paragraph.",
  slug: "fuzz-run-draft",
  authors: ["samira-castellanos"],
  topics: ["Managing Yourself"],
  contentType: "Article",
  tier: "article",
  series: null,
  seriesTitle: null,
  seriesPart: null,
  streams: [],
  published: "2026-03-10",
};

/** Reader C, made an admin and let into the desk through the enrolment page; and the world's API keys. */
async function deskStaff(
  baseUrl: string,
  database: ConnectionOptions,
): Promise<Pick<World, "staff" | "keys" | "deskArticle" | "draft" | "issue">> {
  const c = await register(baseUrl);
  const db = connect(database);
  try {
    const added = await addStaff(db, COMMAND_LINE, c.email, ["admin"], new Date());
    if (!added.ok) throw new Error(`could not make the fuzz run's admin: ${added.reason}`);
    const enrol = `/desk/enrol?token=${encodeURIComponent(added.token)}`;
    const page = cheerio.load(await (await c.browser.expectStatus(enrol, undefined, 200)).text());
    const secret = page("main strong")
      .map((_, el) => page(el).text().replace(/ /g, ""))
      .get()
      .find((text) => /^[A-Z2-7]{32}$/.test(text));
    if (!secret) throw new Error("the enrolment page shows no secret");
    await c.browser.expectStatus(enrol, { code: totpCode(secret, new Date()) }, 303);
    const admin = await createApiKey(db, COMMAND_LINE, "Fuzz admin", ["admin"], new Date());
    const revocable = await createApiKey(db, COMMAND_LINE, "Fuzz target", ["editor"], new Date());
    const article = await createArticle(db, COMMAND_LINE, FUZZ_ARTICLE, new Date());
    if (!article.ok) throw new Error(`could not make the fuzz run's article: ${JSON.stringify(article)}`);
    return {
      staff: Object.assign(c.browser, { userId: added.user.id, email: c.email }),
      keys: { admin: admin.key, revocableId: revocable.apiKey.id },
      deskArticle: { id: String(article.article.id) },
      draft: await fuzzDraft(db),
      issue: { id: String((await createIssue(db, COMMAND_LINE, "the-chart-room", new Date()))!.id) },
    };
  } finally {
    await db.destroy();
  }
}

/** A draft of the run's own, by the first author on a subject. */
async function fuzzDraft(db: Database): Promise<World["draft"]> {
  const fields = await newArticleFields(db, {
    title: "A draft for the fuzz run",
    dek: "Hostile posts aim at it.",
    summary: "It stays a draft unless a post publishes it.",
    body: "One paragraph.",
    slug: `fuzz-draft-${process.pid}-${Date.now()}`,
    published: "2026-03-04",
  });
  const made = await createArticle(db, COMMAND_LINE, fields, new Date());
  if (!made.ok) throw new Error(`could not make the fuzz run's draft: ${JSON.stringify(made.fieldErrors)}`);
  const revision = await db.selectFrom("article_revision").select("id").where("article_id", "=", made.article.id).executeTakeFirstOrThrow();
  return { id: String(made.article.id), revisionId: revision.id, authors: fields.authors[0]!, topics: fields.topics[0]! };
}

export async function prepareWorld(baseUrl: string, database: ConnectionOptions): Promise<World> {
  const $ = cheerio.load(await (await fetch(`${baseUrl}/the-latest`)).text());
  const path = $("main ol article h3 a").first().attr("href")!;
  const save = new URL($("main ol article a[href*='save']").first().attr("href")!, baseUrl);
  const target = save.pathname === "/register" ? new URL(save.searchParams.get("redirectTo")!, baseUrl) : save;
  const article = { path, id: target.searchParams.get("id")! };

  const a = await register(baseUrl);
  const b = await register(baseUrl);
  const owner = await furnish(a.browser, a.email, database, article);
  const hostileIds = await furnish(b.browser, b.email, database, article);
  return {
    baseUrl,
    database,
    article,
    owner,
    hostile: Object.assign(b.browser, { ids: hostileIds }),
    guest: new Browser(baseUrl),
    ...(await deskStaff(baseUrl, database)),
  };
}

/**
 * Reader B's calls are a signed-in reader's only while B's session lasts, and the admin's are
 * the desk's only while their desk session does: a call that ended either stops the run.
 */
export async function expectStillSignedIn(world: World): Promise<void> {
  const res = await world.hostile.request("/service/user/profile");
  if (res.status !== 200) throw new Error(`reader B is no longer signed in (GET /service/user/profile answered ${res.status})`);
  const desk = await world.staff.request("/desk");
  if (desk.status !== 200) throw new Error(`the fuzz run's admin is no longer inside the desk (GET /desk answered ${desk.status})`);
}

/** Everything of reader A's that B's posts must leave alone, as rows. */
export async function ownerData(world: World): Promise<Record<string, unknown[]>> {
  const id = world.owner.userId;
  const q = (sql: string) => selectFromServer<Record<string, unknown>>(world.database, sql, [id]);
  return {
    account: await q(
      "SELECT id, email, first_name, last_name, display_name, password_hash, industry, job_title, company_size FROM app_user WHERE id = ?",
    ),
    cart: await q(
      "SELECT l.id, l.availability_id, l.kind, l.quantity FROM cart_line l JOIN cart c ON c.id = l.cart_id WHERE c.user_id = ? ORDER BY l.id",
    ),
    folders: await q("SELECT id, name, slug, description FROM library_folder WHERE user_id = ? ORDER BY id"),
    items: await q("SELECT id, content_type, content_id FROM library_item WHERE user_id = ? ORDER BY id"),
    filed: await q(
      "SELECT f.item_id, f.folder_id FROM library_item_folder f JOIN library_item i ON i.id = f.item_id WHERE i.user_id = ? ORDER BY f.item_id, f.folder_id",
    ),
    notes: await q("SELECT id, paragraph, quote, note FROM annotation WHERE user_id = ? ORDER BY id"),
    gifts: await q("SELECT id, revoked_at FROM gift_link WHERE user_id = ? ORDER BY id"),
    orders: await q("SELECT id, status, total_cents FROM store_order WHERE user_id = ? ORDER BY id"),
    subscriptions: await q("SELECT id, status, access_end FROM subscription WHERE user_id = ? ORDER BY id"),
  };
}

/** SQLite's own check of the file; PostgreSQL keeps no equivalent to ask. */
export async function integrity(world: World): Promise<string> {
  if (world.database.databaseUrl) return "ok";
  const rows = await selectFromServer<{ integrity_check: string }>(world.database, "PRAGMA integrity_check", []);
  return rows.map((r) => r.integrity_check).join("\n");
}
