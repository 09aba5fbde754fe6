import crypto from "node:crypto";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "~/server/accounts/registration";
import { createSession } from "~/server/accounts/sessions";
import { readerForSession } from "~/server/readers/signed-in";
import { signIn } from "~/server/accounts/sign-in";
import { hashToken, newToken } from "~/server/accounts/tokens";
import type { User } from "~/server/accounts/users";
import { logMail } from "~/server/adapters/mail-log";
import { invoiceDocument } from "~/server/billing/invoices";
import { cancelAtPeriodEnd } from "~/server/billing/cancellation";
import { connect, migrate, type Database } from "~/server/db/connection";
import { migrationProvider } from "~/server/db/migrations";
import { COMMAND_LINE } from "~/server/desk/audit";
import { addStaff } from "~/server/desk/staff";
import { startCardChange } from "~/server/billing/card-change";
import { followAsReader } from "~/server/library/follows";
import { createFolder } from "~/server/library/folders";
import { recordShare, recordView } from "~/server/library/history";
import { saveItem } from "~/server/library/items";
import type { PaymentProvider } from "~/server/payments/provider";
import { createSandboxProvider, SANDBOX_CARDS } from "~/server/payments/sandbox";
import { preorderPaymentReference } from "~/server/store/preorder-payment";
import { createStripeProvider } from "~/server/payments/stripe";
import {
  deleteAccount,
  deletionBlocker,
  ERASED_EMAIL,
  EXPORTED_TABLES,
  exportPersonalData,
  NOT_EXPORTED,
  personalDataJson,
  type DeletedAccount,
  type ProviderOfRecord,
} from "~/server/privacy";
import { dismiss } from "~/server/readers/dismissals";
import { userKey } from "~/server/readers/keys";
import { createGift } from "~/server/share/gifts";
import { createCart } from "~/server/store/cart";
import { markOrderPaid } from "~/server/store/order-payment";
import { activateCheckout, issueCheckoutKey, settleCheckout, startCheckout } from "~/server/subscriptions/checkout";
import { findPlan } from "~/server/subscriptions/plans";
import { startFakeStripe, TEST_CARDS } from "~/tests/helpers/fake-stripe";
import { availabilities, insertOrder, SHIPPING_ADDRESS } from "~/tests/helpers/store-orders";
import { dialectName, isolatedConnection, seededTestDatabase } from "~/tests/helpers/test-db";

// Readers' own privacy rights (ADR 089) on the database the run uses: the export lists every
// table that holds a reader's data (or says why not), and never a secret; deleting an account
// leaves no row tied to it, keeps orders and invoices unlinked with the buyer's name and address,
// ends the sessions, frees the address, and refuses what must be settled first.

const PASSWORD = "Correct7horse!";
const NOW = new Date("2026-06-10T12:00:00Z");
const DAY = 86_400_000;
let db: Database;
let close: () => Promise<void>;
let counter = 0;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function reader(name: string): Promise<User> {
  counter += 1;
  const made = await register(
    db,
    { firstName: name, lastName: "Privacy", email: `${name.toLowerCase()}.${counter}@privacy.example`, password: PASSWORD, optIn: true },
    NOW,
  );
  if (!made.ok) throw new Error(made.reason);
  return made.user;
}

// ---------------------------------------------------------------------------------------------
// Which tables hold a reader's data, read from the migrated database itself.

/** Columns that hold a user's id (besides any column whose foreign key points at app_user). */
const USER_ID_COLUMN = (name: string) =>
  name === "user_id" || name.endsWith("_user_id") || ["actor_id", "updated_by", "saved_by", "redeemed_by"].includes(name);
/** Columns that hold an e-mail address. */
const ADDRESS_COLUMN = (name: string) => name === "email" || name.endsWith("_email") || name === "recipient";
/** A field of the export's JSON, by its path. */
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

/** Columns that hold a reader's key (server/readers/keys.ts): `u:{user id}` for an account. */
const READER_KEY_COLUMN = (name: string) => ["meter_key", "owner_key", "viewer"].includes(name);

type Kind = "id" | "address" | "key";

async function foreignKeysToUsers(): Promise<Set<string>> {
  const rows =
    dialectName === "sqlite"
      ? (
          await sql<{ tbl: string; col: string }>`
            select m.name as tbl, f."from" as col from sqlite_master m, pragma_foreign_key_list(m.name) f
            where m.type = 'table' and f."table" = 'app_user'`.execute(db)
        ).rows
      : (
          await sql<{ tbl: string; col: string }>`
            select kcu.table_name as tbl, kcu.column_name as col
            from information_schema.table_constraints tc
            join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
            join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
            where tc.constraint_type = 'FOREIGN KEY' and ccu.table_name = 'app_user' and tc.table_schema = current_schema()`.execute(db)
        ).rows;
  return new Set(rows.map((r) => `${r.tbl}.${r.col}`));
}

/** Every column of every table that ties a row to a reader, by what it holds. */
async function personalColumns(): Promise<{ table: string; column: string; kind: Kind }[]> {
  const references = await foreignKeysToUsers();
  const tables = await db.introspection.getTables();
  const found: { table: string; column: string; kind: Kind }[] = [];
  for (const table of tables) {
    if (table.isView) continue;
    for (const { name } of table.columns) {
      const kind: Kind | null =
        USER_ID_COLUMN(name) || references.has(`${table.name}.${name}`)
          ? "id"
          : ADDRESS_COLUMN(name)
            ? "address"
            : READER_KEY_COLUMN(name)
              ? "key"
              : null;
      if (kind) found.push({ table: table.name, column: name, kind });
    }
  }
  return found;
}

describe("the export's list of tables", () => {
  it("names every table that holds a user id, an e-mail address or a reader key: exported, or excluded with a reason", async () => {
    const personal = new Set(["app_user", ...(await personalColumns()).map((c) => c.table)]);
    const excluded = new Map(Object.entries(NOT_EXPORTED));
    const unaccounted = [...personal].filter((t) => !EXPORTED_TABLES.has(t) && !excluded.has(t));
    expect(unaccounted, "add each to a section of server/privacy/export.ts, or to NOT_EXPORTED with the reason").toEqual([]);
    expect([...excluded.keys()].filter((t) => EXPORTED_TABLES.has(t))).toEqual([]);
    for (const [table, reason] of excluded) expect(reason?.length, table).toBeGreaterThan(20);
    const existing = new Set((await db.introspection.getTables()).map((t) => t.name));
    expect([...EXPORTED_TABLES, ...excluded.keys()].filter((t) => !existing.has(t))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// A reader with something in most of those tables.

interface Footprint {
  user: User;
  sessionToken: string;
  orderId: string;
  orderToken: string;
  invoiceId: string;
  secrets: string[];
}

async function someArticles(n: number) {
  return db.selectFrom("article").select(["id", "title"]).orderBy("id").limit(n).execute();
}

/** A reader who did a bit of everything: their web plan is cancelled at period end, so they may leave. */
async function busyReader(name: string): Promise<Footprint> {
  const user = await reader(name);
  const [first, second, third] = await someArticles(3);
  const sessionToken = await createSession(db, user.id, 30, NOW, "Mozilla/5.0 (X11; Linux x86_64) Privacy/1.0");
  await signIn(db, user.email, "not the password", { maxFailures: 5, lockoutSeconds: 900 }, NOW);

  const topic = await db.selectFrom("topic").select("id").orderBy("id").executeTakeFirstOrThrow();
  await followAsReader(db, user.id, "topic", String(topic.id));
  const newsletter = await db
    .selectFrom("newsletter")
    .select("slug")
    .where("subscriber_only", "=", 0)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  await followAsReader(db, user.id, "newsletter", newsletter.slug);
  const folder = await createFolder(db, user.id, { name: "Board reading", description: "For Monday" }, NOW);
  if (!folder.ok) throw new Error(folder.error);
  await saveItem(db, user.id, { type: "article", id: first!.id }, [folder.folder.id], NOW);
  await recordView(db, user.id, { type: "article", id: second!.id }, NOW);
  await recordShare(db, user.id, { type: "article", id: third!.id }, "email", 2, NOW);
  await db
    .insertInto("annotation")
    .values({
      id: crypto.randomUUID(),
      user_id: user.id,
      article_id: first!.id,
      paragraph: 1,
      quote: "a quote",
      note: "My own note",
      created_at: NOW.toISOString(),
    })
    .execute();
  const gift = await createGift(db, { userId: user.id, articleId: second!.id, allowance: 5 }, NOW);
  if (!gift.ok) throw new Error(gift.reason);
  await dismiss(db, userKey(user.id), "onboarding", NOW);
  await db
    .insertInto("meter_read")
    .values({
      meter_key: userKey(user.id),
      period: "2026-06",
      meter: "article",
      article_id: third!.id,
      read_at: NOW.toISOString(),
      client_address: null,
    })
    .execute();
  await logMail(db, { recipients: [`${name} <${user.email}>`], subject: "Welcome to Meridian Review", messageId: "<m@x>", at: NOW });
  const resetToken = newToken();
  await db
    .insertInto("password_reset")
    .values({
      token_hash: hashToken(resetToken),
      user_id: user.id,
      created_at: NOW.toISOString(),
      expires_at: new Date(NOW.getTime() + DAY).toISOString(),
      used_at: null,
    })
    .execute();
  await db
    .insertInto("email_change")
    .values({
      token_hash: hashToken(newToken()),
      user_id: user.id,
      new_email: `${name.toLowerCase()}.new.${counter}@privacy.example`,
      created_at: NOW.toISOString(),
      expires_at: new Date(NOW.getTime() + DAY).toISOString(),
      used_at: null,
    })
    .execute();
  await db
    .insertInto("rate_limit")
    .values({
      key: `current-password:account:${user.email}`,
      window_start: NOW.toISOString(),
      window_end: new Date(NOW.getTime() + 900_000).toISOString(),
      hits: 1,
    })
    .execute();
  await db
    .insertInto("service_request")
    .values({ key: crypto.randomUUID(), action: "reader.unlock", user_id: user.id, created_at: NOW.toISOString() })
    .execute();

  // The store: a saved address, a cart with a line and a checkout in progress, a paid order shipped to an address.
  await db
    .insertInto("saved_address")
    .values({
      id: crypto.randomUUID(),
      user_id: user.id,
      first_name: "Ada",
      last_name: "Byron",
      address1: "12 Harbour Road",
      address2: null,
      city: "Albany",
      state: "NY",
      postal_code: "12207",
      country_code: "US",
      created_at: NOW.toISOString(),
    })
    .execute();
  const pick = await availabilities(db);
  const cart = await createCart(db, user.id, NOW);
  await db
    .insertInto("cart_line")
    .values({
      id: crypto.randomUUID(),
      cart_id: cart,
      availability_id: pick.kindle.id,
      kind: "item",
      quantity: 1,
      referral: null,
      added_at: NOW.toISOString(),
    })
    .execute();
  await db
    .insertInto("checkout_draft")
    .values({
      cart_id: cart,
      email: user.email,
      address_id: null,
      first_name: "Ada",
      last_name: "Byron",
      address1: "12 Harbour Road",
      address2: null,
      city: "Albany",
      state: "NY",
      postal_code: "12207",
      country_code: "US",
      save_address: 0,
      shipping_method: "standard",
      promo_code: null,
      confirmed_at: null,
      updated_at: NOW.toISOString(),
    })
    .execute();
  const order = await insertOrder(db, {
    userId: user.id,
    email: user.email,
    status: "paid",
    createdAt: NOW.toISOString(),
    lines: [{ availabilityId: pick.hardcover.id }],
  });
  await db
    .insertInto("promo_use")
    .values({ order_id: order.id, code: "WELCOME10", user_id: user.id, email: user.email, used_at: NOW.toISOString(), released_at: null })
    .execute();
  await db
    .insertInto("wall_view")
    .values({ day: "2026-06-02", wall: "subscribe", ab_tag: "ART_SUB", viewer: userKey(user.id) })
    .execute();
  await db
    .updateTable("store_order")
    .set({
      ship_first_name: SHIPPING_ADDRESS.firstName,
      ship_last_name: SHIPPING_ADDRESS.lastName,
      ship_address1: SHIPPING_ADDRESS.address1,
      ship_city: SHIPPING_ADDRESS.city,
      ship_state: SHIPPING_ADDRESS.state,
      ship_postal_code: SHIPPING_ADDRESS.postalCode,
      ship_country_code: SHIPPING_ADDRESS.countryCode,
    })
    .where("id", "=", order.id)
    .execute();
  const voucherCode = `PRIV-${counter}-${crypto.randomBytes(3).toString("hex")}`;
  await db
    .insertInto("voucher")
    .values({
      code: voucherCode,
      availability_id: pick.kindle.id,
      redeemed_by: user.id,
      redeemed_at: NOW.toISOString(),
      order_id: order.id,
    })
    .execute();

  // A web plan bought through a checkout (an invoice with it), then cancelled at the end of its period.
  const plan = findPlan("digital")!;
  const checkoutId = `chk_${crypto.randomBytes(16).toString("base64url")}`;
  await db
    .insertInto("subscription_checkout")
    .values({
      id: checkoutId,
      user_id: user.id,
      plan_id: plan.id,
      ab_tag: "paywall-article",
      amount_cents: plan.priceCents,
      provider: "sandbox",
      provider_session_id: null,
      status: "created",
      created_at: NOW.toISOString(),
      activated_at: null,
      idempotency_key: crypto.randomUUID(),
      provider_checkout_url: null,
      company: "Harbour Analytics",
      tax_id: "US-123",
      billing_country: "US",
      billing_region: "NY",
      tax_cents: 0,
      tax_rate_bp: 0,
    })
    .execute();
  await activateCheckout(db, checkoutId, NOW, { id: `pm_${counter}_privacy`, brand: "visa", last4: "4242" });
  expect(await cancelAtPeriodEnd(db, user.id, null, new Date(NOW.getTime() + 1000))).toBe("cancelled");
  const invoice = await db.selectFrom("invoice").select(["id", "subscription_id"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
  await db
    .insertInto("card_change")
    .values({
      session_id: `cs_${counter}_privacy`,
      subscription_id: invoice.subscription_id,
      payment_method_id: `pm_${counter}_new`,
      applied_at: NOW.toISOString(),
    })
    .execute();

  const hashes = await db.selectFrom("app_user").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
  const giftHash = await db.selectFrom("gift_link").select("token_hash").where("user_id", "=", user.id).executeTakeFirstOrThrow();
  return {
    user,
    sessionToken,
    orderId: order.id,
    orderToken: order.accessToken,
    invoiceId: invoice.id,
    secrets: [
      hashes.password_hash,
      sessionToken,
      hashToken(sessionToken),
      order.accessToken,
      gift.token,
      giftHash.token_hash,
      resetToken,
      hashToken(resetToken),
      `pm_${counter}_privacy`,
    ],
  };
}

describe("a reader's data", () => {
  it("lists what the site holds about them, and never a password hash, a token or a card's id", async () => {
    const busy = await busyReader("Exporter");
    const data = await exportPersonalData(db, { userId: busy.user.id, email: busy.user.email }, NOW);
    const json = personalDataJson(data);
    for (const secret of busy.secrets) expect(json, "a secret in the export").not.toContain(secret);
    expect(json).not.toMatch(/password_?hash|token_?hash|access_?token|id_hash/i);

    const file = JSON.parse(json) as unknown;
    expect(file).toMatchObject({ site: "Meridian Review", exportedAt: NOW.toISOString() });
    expect(at(file, "profile")).toMatchObject({ emailAddress: busy.user.email, firstName: "Exporter", emailUpdatesOptIn: true });
    expect(at(file, "profile", "emailAddressChanges")).toHaveLength(1);
    expect(at(file, "signIn", "sessions")).toEqual([expect.objectContaining({ browser: "Mozilla/5.0 (X11; Linux x86_64) Privacy/1.0" })]);
    expect(at(file, "signIn", "failedSignIns")).toMatchObject({ wrongPasswordsSinceLastSignIn: 1 });
    expect(at(file, "signIn", "passwordResetLinks")).toHaveLength(1);
    expect((at(file, "follows", "following") as { kind: string }[]).map((f) => f.kind).sort()).toEqual(["newsletter", "topic"]);
    expect(at(file, "library", "folders")).toEqual([expect.objectContaining({ name: "Board reading" })]);
    expect(at(file, "library", "savedItems")).toEqual([expect.objectContaining({ type: "article", folders: ["Board reading"] })]);
    expect(at(file, "notes")).toEqual([expect.objectContaining({ note: "My own note", quote: "a quote" })]);
    expect(at(file, "history", "readAndWatched")).toHaveLength(1);
    expect(at(file, "history", "shared")).toEqual([expect.objectContaining({ via: "email", recipients: 2 })]);
    expect(at(file, "orders", "orders")).toEqual([
      expect.objectContaining({ status: "paid", shipTo: expect.objectContaining({ name: "Ada Byron", city: "Albany" }) }),
    ]);
    expect(at(file, "orders", "vouchersRedeemed")).toHaveLength(1);
    expect(at(file, "addresses", "savedAddresses")).toHaveLength(1);
    expect(at(file, "addresses", "cart", "items")).toHaveLength(1);
    expect(at(file, "addresses", "cart", "checkoutInProgress")).toMatchObject({ name: "Ada Byron" });
    expect(at(file, "subscriptions", "subscriptions")).toEqual([
      expect.objectContaining({ kind: "web", billingStatus: "cancel_at_period_end", card: "visa ending in 4242" }),
    ]);
    expect(at(file, "subscriptions", "checkouts")).toEqual([
      expect.objectContaining({ company: "Harbour Analytics", status: "activated" }),
    ]);
    expect(at(file, "subscriptions", "invoices")).toEqual([expect.objectContaining({ number: expect.stringMatching(/^MR-\d{6}$/) })]);
    expect(at(file, "meter")).toHaveLength(1);
    expect(at(file, "walls")).toEqual([{ day: "2026-06-02", wall: "subscribe", tag: "ART_SUB" }]);
    expect(at(file, "gifts", "links")).toHaveLength(1);
    expect(at(file, "mail", "messages")).toEqual([{ subject: "Welcome to Meridian Review", sentAt: NOW.toISOString() }]);
    expect(at(file, "messages")).toEqual([{ message: "onboarding", dismissedAt: NOW.toISOString() }]);
    expect(at(file, "staff", "roles")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

/** Rows anywhere that still tie to the account: by its id, its addresses or its reader key. */
async function rowsTiedTo(userId: string, addresses: string[]): Promise<string[]> {
  const left: string[] = [];
  for (const { table, column, kind } of await personalColumns()) {
    const values = kind === "id" ? [userId] : kind === "key" ? [userKey(userId)] : addresses;
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(values)})`.execute(db);
    if (Number(rows[0]!.n) > 0) left.push(`${table}.${column}`);
  }
  return left;
}

describe("deleting an account", () => {
  it("erases the reader, keeps their order and invoice unlinked with their name and address, ends their sessions and frees the address", async () => {
    const busy = await busyReader("Leaver");
    const { user } = busy;
    const pending = await db.selectFrom("email_change").select("new_email").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    await logMail(db, { recipients: [pending.new_email], subject: "Confirm your new address", messageId: "<n@x>", at: NOW });
    const later = new Date(NOW.getTime() + 2000);

    const outcome = await deleteAccount(db, user.id, later);
    expect(outcome).toEqual({
      ok: true,
      deleted: { userId: user.id, email: user.email, firstName: "Leaver", ordersKept: 1, invoicesKept: 1 } satisfies DeletedAccount,
    });

    // Nothing keyed by the account, its addresses or its reader key is left, but what is kept by design.
    expect(await rowsTiedTo(user.id, [user.email, pending.new_email])).toEqual([]);
    expect(await db.selectFrom("rate_limit").select("key").where("key", "like", `%${user.email}`).execute()).toEqual([]);
    expect(await readerForSession(db, busy.sessionToken, later)).toBeUndefined();

    // The order: made out to them, shipped to the same address, reachable by no old link, mailing no one.
    const order = await db.selectFrom("store_order").selectAll().where("id", "=", busy.orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      user_id: null,
      email: ERASED_EMAIL,
      buyer_name: "Leaver Privacy",
      status: "paid",
      ship_first_name: "Ada",
      ship_address1: "12 Harbour Road",
      ship_postal_code: "12207",
    });
    expect(order.access_token).not.toBe(busy.orderToken);
    expect(await db.selectFrom("store_order_line").select("title").where("order_id", "=", busy.orderId).execute()).toHaveLength(1);

    // The invoice: unlinked, still printable, made out to their name and billing address.
    const invoice = await db.selectFrom("invoice").selectAll().where("id", "=", busy.invoiceId).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      user_id: null,
      buyer_name: "Leaver Privacy",
      billing_country: "US",
      billing_region: "NY",
      company: "Harbour Analytics",
    });
    const publisher = { name: "Meridian Review Publishing", addressLines: ["60 Harbor Street"], taxId: null };
    const printed = await invoiceDocument(db, busy.invoiceId, publisher, "http://localhost:3000");
    expect(printed.pdf.length).toBeGreaterThan(1000);

    // The plan: ended now, unlinked, without its card; its checkout stays for the figures, without the company.
    const plan = await db.selectFrom("subscription").selectAll().where("id", "=", invoice.subscription_id).executeTakeFirstOrThrow();
    expect(await db.selectFrom("card_change").select("session_id").where("subscription_id", "=", plan.id).execute()).toEqual([]);
    expect(plan).toMatchObject({
      user_id: null,
      status: "cancelled",
      billing_status: "ended",
      access_end: later.toISOString(),
      payment_method_id: null,
      card_last4: null,
    });
    const checkout = await db
      .selectFrom("subscription_checkout")
      .selectAll()
      .where("id", "=", invoice.payment_key)
      .executeTakeFirstOrThrow();
    expect(checkout).toMatchObject({ user_id: null, status: "activated", ab_tag: "paywall-article", company: null, tax_id: null });

    // The audit row names the account by its id alone.
    const audit = await db
      .selectFrom("desk_audit")
      .selectAll()
      .where("action", "=", "account.delete")
      .where("subject", "=", `account:${user.id}`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain(user.email);
    expect(JSON.stringify(audit[0])).not.toContain("Leaver");
    expect(JSON.parse(audit[0]!.after!)).toEqual({ ordersKept: 1, invoicesKept: 1 });

    // The address registers again, as a new reader with nothing of the old one.
    const again = await register(db, { firstName: "New", lastName: "Reader", email: user.email, password: PASSWORD, optIn: false }, later);
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(again.user.id).not.toBe(user.id);
    const fresh = JSON.parse(
      personalDataJson(await exportPersonalData(db, { userId: again.user.id, email: user.email }, later)),
    ) as unknown;
    expect(at(fresh, "orders", "orders")).toEqual([]);
    expect(at(fresh, "subscriptions", "invoices")).toEqual([]);
    expect(at(fresh, "mail", "messages")).toEqual([]);
    expect(await deleteAccount(db, user.id, later)).toEqual({ ok: false, reason: "not-found" });
  });

  it("refuses staff, a plan that still renews or is past due, and an order awaiting payment; a cancelled plan does not stand in the way", async () => {
    const staff = await reader("Staffer");
    expect((await addStaff(db, COMMAND_LINE, staff.email, ["editor"], NOW)).ok).toBe(true);
    expect(await deleteAccount(db, staff.id, NOW)).toEqual({ ok: false, blocker: { reason: "staff" } });

    const subscriber = await reader("Renewer");
    const checkoutId = `chk_${crypto.randomBytes(16).toString("base64url")}`;
    const plan = findPlan("digital")!;
    await db
      .insertInto("subscription_checkout")
      .values({
        id: checkoutId,
        user_id: subscriber.id,
        plan_id: plan.id,
        ab_tag: "",
        amount_cents: plan.priceCents,
        provider: "sandbox",
        provider_session_id: null,
        status: "created",
        created_at: NOW.toISOString(),
        activated_at: null,
        idempotency_key: crypto.randomUUID(),
        provider_checkout_url: null,
        company: null,
        tax_id: null,
        billing_country: "US",
        billing_region: "NY",
        tax_cents: 0,
        tax_rate_bp: 0,
      })
      .execute();
    await activateCheckout(db, checkoutId, NOW, { id: `pm_renew_${counter}`, brand: "visa", last4: "1111" });
    const blocked = await deleteAccount(db, subscriber.id, NOW);
    expect(blocked).toMatchObject({ ok: false, blocker: { reason: "renewing", plan: plan.name } });
    await db
      .updateTable("subscription")
      .set({ billing_status: "past_due", grace_end: new Date(NOW.getTime() + 7 * DAY).toISOString() })
      .where("user_id", "=", subscriber.id)
      .execute();
    expect(await deletionBlocker(db, subscriber.id)).toMatchObject({ reason: "past-due" });
    await db.updateTable("subscription").set({ billing_status: "active", grace_end: null }).where("user_id", "=", subscriber.id).execute();
    expect(await cancelAtPeriodEnd(db, subscriber.id, null, NOW)).toBe("cancelled");

    const pick = await availabilities(db);
    const pending = await insertOrder(db, {
      userId: subscriber.id,
      email: subscriber.email,
      status: "pending_payment",
      createdAt: NOW.toISOString(),
      lines: [{ availabilityId: pick.kindle.id }],
    });
    expect(await deleteAccount(db, subscriber.id, NOW)).toEqual({
      ok: false,
      blocker: { reason: "pending-order", orderId: pending.id, orderNumber: pending.number },
    });
    // Nothing was touched by the refusals.
    expect(await db.selectFrom("app_user").select("id").where("id", "=", subscriber.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("invoice").select("id").where("user_id", "=", subscriber.id).execute()).toHaveLength(1);

    await db
      .updateTable("store_order")
      .set({ status: "cancelled", cancelled_at: NOW.toISOString() })
      .where("id", "=", pending.id)
      .execute();
    expect(await deleteAccount(db, subscriber.id, NOW)).toMatchObject({ ok: true, deleted: { ordersKept: 1, invoicesKept: 1 } });
  });

  it("ends at the provider a cancelled plan the provider renews, before anything is deleted", async () => {
    const user = await reader("Striper");
    await db
      .insertInto("subscription")
      .values({
        id: crypto.randomUUID(),
        user_id: user.id,
        role_code: findPlan("digital")!.roleCode,
        source: "web",
        reference: `stripe-${counter}`,
        status: "active",
        access_start: NOW.toISOString(),
        access_end: new Date(NOW.getTime() + 20 * DAY).toISOString(),
        created_at: NOW.toISOString(),
        plan_id: "digital",
        billing_status: "cancel_at_period_end",
        provider_subscription_id: `sub_${counter}`,
        provider_customer_id: `cus_${counter}`,
      })
      .execute();
    const secretKey = "sk_test_51MeridianPrivacyProvider000000";
    const fake = await startFakeStripe(secretKey, { now: NOW });
    try {
      const down = createStripeProvider({ secretKey, webhookSecret: "whsec_privacy", apiUrl: "http://127.0.0.1:9" });
      await expect(deleteAccount(db, user.id, NOW, down)).rejects.toThrow(/^Stripe: cancel subscription failed/);
      expect(await db.selectFrom("app_user").select("id").where("id", "=", user.id).execute()).toHaveLength(1);
      // The sandbox cannot end what Stripe renews: nothing is deleted either.
      await expect(
        deleteAccount(db, user.id, NOW, createSandboxProvider(db, { siteUrl: "http://127.0.0.1:9", webhookSecret: "whsec_privacy" })),
      ).rejects.toThrow(/only be ended through the provider/);

      // Stripe no longer knows them (ended and deleted there before): done, as far as the site is concerned.
      const stripe = createStripeProvider({ secretKey, webhookSecret: "whsec_privacy", apiUrl: fake.url });
      expect(await deleteAccount(db, user.id, NOW, stripe)).toMatchObject({ ok: true });
      expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([
        `/v1/subscriptions/sub_${counter}`,
        `/v1/customers/cus_${counter}`,
      ]);
      const kept = await db.selectFrom("subscription").selectAll().where("reference", "=", `stripe-${counter}`).executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ user_id: null, billing_status: "ended", provider_customer_id: null, access_end: NOW.toISOString() });
    } finally {
      await fake.close();
    }
  });
});

describe("deleting an account at the payment provider", () => {
  /** A digital plan's checkout for a reader, billed in the UK, through a provider. */
  async function startPlanCheckout(provider: PaymentProvider, user: { id: string; email: string }, options: { renews?: boolean } = {}) {
    const started = await startCheckout(
      db,
      provider,
      {
        userId: user.id,
        email: user.email,
        plan: findPlan("digital")!,
        abTag: "",
        siteUrl: "http://127.0.0.1:9",
        idempotencyKey: issueCheckoutKey(),
        ...options,
        billing: { countryCode: "GB", region: null },
      },
      NOW,
    );
    if (!started.ok) throw new Error(started.problem);
    return started;
  }

  it("deletes the reader's customer at Stripe after ending their plan there; Stripe out of reach deletes nothing, and the retry goes through", async () => {
    const secretKey = "sk_test_51MeridianPrivacyLoopback000000";
    const fake = await startFakeStripe(secretKey, { now: NOW });
    try {
      const stripe = createStripeProvider({ secretKey, webhookSecret: "whsec_privacy", apiUrl: fake.url });
      const user = await reader("Customer");
      const started = await startPlanCheckout(stripe, user, { renews: true });
      fake.pay(fake.sessionAt(started.url)!.id, TEST_CARDS.succeeds);
      expect(await settleCheckout(db, stripe, started.checkoutId, user.id, NOW)).toBe("activated");
      expect(await cancelAtPeriodEnd(db, user.id, "price", NOW, stripe.subscriptions)).toBe("cancelled");
      const plan = await db.selectFrom("subscription").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
      const customer = plan.provider_customer_id!;
      expect(fake.customers.get(customer)).toMatchObject({ email: user.email });

      // The plan ends at Stripe, then its customer cannot be deleted: nothing here is deleted.
      const unreachable = createStripeProvider({ secretKey, webhookSecret: "whsec_privacy", apiUrl: "http://127.0.0.1:9" });
      const halfway: ProviderOfRecord = { name: "stripe", subscriptions: stripe.subscriptions, customers: unreachable.customers };
      await expect(deleteAccount(db, user.id, NOW, halfway)).rejects.toThrow(/^Stripe: delete customer failed/);
      expect(fake.subscriptions.get(plan.provider_subscription_id!)).toMatchObject({ status: "canceled" });
      expect(fake.customers.get(customer)).toMatchObject({ email: user.email });
      expect(await db.selectFrom("app_user").select("id").where("id", "=", user.id).execute()).toHaveLength(1);

      // Tried again: Stripe answers the plan's second end as ended, and deletes the customer.
      expect(await deleteAccount(db, user.id, NOW, stripe)).toMatchObject({ ok: true });
      expect(fake.customers.get(customer)).toEqual({ id: customer, object: "customer", deleted: true });
      expect(fake.events.map((e) => e.type)).toContain("customer.deleted");
      const kept = await db.selectFrom("subscription").selectAll().where("id", "=", plan.id).executeTakeFirstOrThrow();
      expect(kept).toMatchObject({ user_id: null, provider_customer_id: null, billing_status: "ended" });

      // Asked again, and for a customer Stripe does not know: done, as far as the site is concerned.
      await stripe.customers!.delete(customer);
      await stripe.customers!.delete("cus_NeverMadeHere");
      const deletes = fake.requests.filter((r) => r.method === "DELETE" && r.path.startsWith("/v1/customers/"));
      expect(deletes.map((r) => r.path)).toEqual([
        `/v1/customers/${customer}`,
        `/v1/customers/${customer}`,
        "/v1/customers/cus_NeverMadeHere",
      ]);
    } finally {
      await fake.close();
    }
  });

  it("anonymises the sandbox's records of the reader's payments and cards, keeping amounts and card ids; a guest's payment from the same address stays", async () => {
    const sandbox = createSandboxProvider(db, { siteUrl: "http://127.0.0.1:9", webhookSecret: "whsec_privacy" });
    const sessionOf = (url: string) => url.split("/").pop()!;
    const user = await reader("Sandboxer");
    const started = await startPlanCheckout(sandbox, user);
    expect((await sandbox.pay(sessionOf(started.url), SANDBOX_CARDS.succeeds, NOW)).ok).toBe(true);
    expect(await settleCheckout(db, sandbox, started.checkoutId, user.id, NOW)).toBe("activated");
    const cardChange = await startCardChange(db, sandbox, { userId: user.id, email: user.email }, "http://127.0.0.1:9");
    expect((await sandbox.pay(sessionOf(cardChange!.url), SANDBOX_CARDS.succeeds, NOW)).ok).toBe(true);
    expect(await cancelAtPeriodEnd(db, user.id, null, NOW)).toBe("cancelled");

    const pick = await availabilities(db);
    const paidOrder = async (userId: string | null) => {
      const order = await insertOrder(db, {
        userId,
        email: user.email,
        status: "pending_payment",
        createdAt: NOW.toISOString(),
        lines: [{ availabilityId: pick.hardcover.id }],
      });
      const session = await sandbox.createCheckout({
        reference: order.id,
        description: order.number,
        amountCents: 3200,
        currency: "usd",
        customerEmail: user.email,
        successUrl: "http://127.0.0.1:9/ok",
        cancelUrl: "http://127.0.0.1:9/no",
        saveCard: true,
      });
      expect((await sandbox.pay(session.id, SANDBOX_CARDS.succeeds, NOW)).ok).toBe(true);
      expect(await markOrderPaid(db, order.id, NOW)).toBe(true);
      return session.id;
    };
    const own = await paidOrder(user.id);
    const guests = await paidOrder(null);
    // A pre-order of the reader's order, declined on its date and paid again with another card.
    const ownOrder = (await db.selectFrom("sandbox_payment").select("reference").where("id", "=", own).executeTakeFirstOrThrow()).reference;
    const again = { order_id: ownOrder, position: 1, attempt: 0 };
    await db
      .insertInto("store_preorder_payment")
      .values({
        ...again,
        provider: "sandbox",
        amount_cents: 1500,
        session_id: null,
        checkout_url: null,
        opened_at: NOW.toISOString(),
        closed_at: null,
        paid_at: null,
      })
      .execute();
    const paidAgain = await sandbox.createCheckout({
      reference: preorderPaymentReference(again),
      description: "Pre-order, paid again",
      amountCents: 1500,
      currency: "usd",
      customerEmail: user.email,
      successUrl: "http://127.0.0.1:9/ok",
      cancelUrl: "http://127.0.0.1:9/no",
    });
    expect((await sandbox.pay(paidAgain.id, SANDBOX_CARDS.succeeds, NOW)).ok).toBe(true);

    const theirs = (
      await db.selectFrom("sandbox_payment").select("id").where("customer_email", "=", user.email).where("id", "!=", guests).execute()
    ).map((p) => p.id);
    const payments = () =>
      db
        .selectFrom("sandbox_payment")
        .select(["id", "reference", "amount_cents", "status", "customer_email", "card_last4", "payment_method_id"])
        .where("id", "in", theirs)
        .orderBy("reference")
        .execute();
    const before = await payments();
    // Its plan's checkout, its card change, its order and its pre-order paid again, each through the sandbox.
    expect(before.map((p) => p.reference).sort()).toEqual([
      expect.stringMatching(/^card:/),
      started.checkoutId,
      expect.stringMatching(/^ord_/),
      preorderPaymentReference(again),
    ]);
    // The pre-order paid again saved no card.
    const cards = before.flatMap((p) => (p.payment_method_id ? [p.payment_method_id] : []));
    expect(cards).toHaveLength(3);
    expect(await deleteAccount(db, user.id, NOW)).toMatchObject({ ok: true });

    // The e-mail and the card's digits are gone; what was paid, and the card ids, stay.
    expect(await payments()).toEqual(before.map((p) => ({ ...p, customer_email: ERASED_EMAIL, card_last4: null })));
    const methods = await db.selectFrom("sandbox_payment_method").selectAll().where("id", "in", cards).execute();
    expect(methods.map((m) => [m.customer_email, m.brand, m.last4])).toEqual(cards.map(() => [ERASED_EMAIL, "", ""]));
    // So a kept order can still be refunded, and a card it saved charged (a pre-order on its date).
    expect(
      await sandbox.refund({ sessionId: own, amountCents: 3200, idempotencyKey: `privacy:${own}`, reference: `refund:${own}` }),
    ).toMatchObject({ status: "succeeded" });
    const orderCard = before.find((p) => p.id === own)!.payment_method_id!;
    expect(await sandbox.billing.charge({ cardId: orderCard, amountCents: 1500, idempotencyKey: `privacy:${orderCard}` })).toMatchObject({
      status: "succeeded",
    });
    // A guest's order from the same address is not the account's: its payment is as it was.
    expect(
      await db.selectFrom("sandbox_payment").select(["customer_email", "card_last4"]).where("id", "=", guests).executeTakeFirstOrThrow(),
    ).toEqual({ customer_email: user.email, card_last4: "4242" });
  });
});

describe("migration 049", () => {
  it("keeps every subscription, checkout and invoice as it was, and lets their reader go without them", async () => {
    const connection = await isolatedConnection("m049", { empty: true });
    const fresh = connect(connection);
    try {
      const before = await new Migrator({ db: fresh, provider: migrationProvider }).migrateTo("048-customer-service");
      expect(before.error).toBeUndefined();
      const at = NOW.toISOString();
      await sql`insert into app_user (id, email, first_name, last_name, password_hash, created_at, updated_at)
        values ('u1', 'old@privacy.example', 'Olga', 'Older', 'x', ${at}, ${at})`.execute(fresh);
      await sql`insert into subscription (id, user_id, role_code, source, reference, status, access_start, access_end, created_at, plan_id, card_last4)
        values ('s1', 'u1', 'MR_GOOD', 'web', 'chk_1', 'active', ${at}, ${at}, ${at}, 'digital', '4242')`.execute(fresh);
      await sql`insert into subscription_checkout (id, user_id, plan_id, ab_tag, amount_cents, provider, status, created_at, company)
        values ('chk_1', 'u1', 'digital', 'tag', 1200, 'sandbox', 'activated', ${at}, 'Older Ltd')`.execute(fresh);
      await sql`insert into invoice (id, number, subscription_id, user_id, payment_key, kind, plan_id, amount_cents, tax_cents, period_start, period_end, created_at)
        values ('i1', 7, 's1', 'u1', 'chk_1', 'purchase', 'digital', 1200, 96, ${at}, ${at}, ${at})`.execute(fresh);

      await migrate(fresh);
      expect(await fresh.selectFrom("subscription").select(["id", "user_id", "card_last4"]).execute()).toEqual([
        { id: "s1", user_id: "u1", card_last4: "4242" },
      ]);
      expect(await fresh.selectFrom("subscription_checkout").select(["id", "user_id", "company"]).execute()).toEqual([
        { id: "chk_1", user_id: "u1", company: "Older Ltd" },
      ]);
      expect(await fresh.selectFrom("invoice").select(["id", "number", "subscription_id", "user_id", "buyer_name"]).execute()).toEqual([
        { id: "i1", number: 7, subscription_id: "s1", user_id: "u1", buyer_name: null },
      ]);
      // Deleting the account now sets their links null instead of taking them with it.
      await fresh.deleteFrom("app_user").where("id", "=", "u1").execute();
      expect(await fresh.selectFrom("invoice").select("user_id").execute()).toEqual([{ user_id: null }]);
      expect(await fresh.selectFrom("subscription").select("user_id").execute()).toEqual([{ user_id: null }]);
      expect(await fresh.selectFrom("subscription_checkout").select("user_id").execute()).toEqual([{ user_id: null }]);
      // The tables' constraints came through: no invoice for a subscription that does not exist,
      // and one active web plan per reader.
      await expect(
        sql`insert into invoice (id, number, subscription_id, user_id, payment_key, kind, plan_id, amount_cents, tax_cents, period_start, period_end, created_at)
          values ('i2', 8, 'nope', null, 'k2', 'purchase', 'digital', 1, 0, ${at}, ${at}, ${at})`.execute(fresh),
      ).rejects.toThrow();
      await sql`insert into app_user (id, email, first_name, last_name, password_hash, created_at, updated_at)
        values ('u2', 'two@privacy.example', 'Tess', 'Two', 'x', ${at}, ${at})`.execute(fresh);
      const plan = (id: string) =>
        sql`insert into subscription (id, user_id, role_code, source, reference, status, access_start, access_end, created_at)
          values (${id}, 'u2', 'MR_GOOD', 'web', ${id}, 'active', ${at}, ${at}, ${at})`.execute(fresh);
      await plan("s2");
      await expect(plan("s3")).rejects.toThrow();
    } finally {
      await fresh.destroy();
      await connection.drop();
    }
  });
});
