import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { describeHousekeeping, runHousekeeping } from "~/server/housekeeping";
import { createSandboxProvider } from "~/server/payments/sandbox";
import { addToCart, createCart } from "~/server/store/cart";
import { seededTestDatabase } from "~/tests/helpers/test-db";
import { insertOrder } from "~/tests/helpers/store-orders";

let db: Database;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await seededTestDatabase()));
afterAll(() => close());

/** The run's clock: 15 November 2026, noon UTC. */
const NOW = new Date("2026-11-15T12:00:00Z");
const at = (iso: string) => new Date(iso).toISOString();
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

const count = async (table: "user_session" | "meter_read" | "rate_limit" | "cart" | "cart_line" | "password_reset" | "store_order") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("housekeeping", () => {
  it("removes what is past its time and keeps what is still live", async () => {
    const user = (await insertUser(db, {
      firstName: "Iris",
      lastName: "Vance",
      email: "iris.vance@example.org",
      password: "Harbour7!lamp",
      optIn: false,
    }))!;
    const availability = (
      await db
        .selectFrom("product_availability")
        .select("id")
        .where("status", "=", "A")
        .where("code", "=", "HBK")
        .orderBy("id")
        .executeTakeFirstOrThrow()
    ).id;
    const before = {
      sessions: await count("user_session"),
      meter: await count("meter_read"),
      rateLimits: await count("rate_limit"),
      carts: await count("cart"),
      resets: await count("password_reset"),
    };

    const session = (id: string, expires: string) => ({ id_hash: id, user_id: user.id, created_at: daysBefore(40), expires_at: expires });
    await db
      .insertInto("user_session")
      .values([
        session("s-expired", daysBefore(1)),
        session("s-just-expired", NOW.toISOString()),
        session("s-live", at("2026-11-16T00:00:00Z")),
      ])
      .execute();

    const read = (key: string, period: string, articleId: number) => ({
      meter_key: key,
      period,
      meter: "article" as const,
      article_id: articleId,
      read_at: `${period}-10T00:00:00.000Z`,
    });
    await db
      .insertInto("meter_read")
      .values([read("v:old", "2026-09", 1), read("v:old", "2026-10", 1), read("v:old", "2026-10", 2), read("v:now", "2026-11", 1)])
      .execute();

    const limit = (key: string, start: string, end: string) => ({ key, window_start: start, window_end: end, hits: 3 });
    await db
      .insertInto("rate_limit")
      .values([
        limit("ended", daysBefore(2), daysBefore(1)),
        limit("open", at("2026-11-15T11:45:00Z"), at("2026-11-15T12:00:00.001Z")),
        limit("day", at("2026-11-15T00:00:00Z"), at("2026-11-16T00:00:00Z")),
      ])
      .execute();

    const idleGuest = await createCart(db, null, new Date(daysBefore(31)));
    await addToCart(db, idleGuest, { availabilityId: availability, type: "Ship", quantity: 1, referral: null }, new Date(daysBefore(31)));
    const recentGuest = await createCart(db, null, new Date(daysBefore(29)));
    const orderedGuest = await createCart(db, null, new Date(daysBefore(60)));
    const order = await insertOrder(db, {
      userId: null,
      email: "guest@example.org",
      status: "paid",
      createdAt: daysBefore(60),
      lines: [{ availabilityId: availability }],
    });
    await db.updateTable("store_order").set({ cart_id: orderedGuest }).where("id", "=", order.id).execute();
    const idleReaderCart = await createCart(db, user.id, new Date(daysBefore(90)));

    const reset = (hash: string, expires: string) => ({
      token_hash: hash,
      user_id: user.id,
      created_at: daysBefore(3),
      expires_at: expires,
      used_at: null,
    });
    await db
      .insertInto("password_reset")
      .values([reset("r-expired", daysBefore(2)), reset("r-live", at("2026-11-15T13:00:00Z"))])
      .execute();
    const change = (hash: string, expires: string) => ({
      token_hash: hash,
      user_id: user.id,
      new_email: `${hash}@example.org`,
      created_at: daysBefore(3),
      expires_at: expires,
      used_at: null,
    });
    await db
      .insertInto("email_change")
      .values([change("e-expired", daysBefore(1)), change("e-live", at("2026-11-16T11:00:00Z"))])
      .execute();
    await db
      .insertInto("geo_country")
      .values([
        { address: "192.0.2.1", country: "US", expires_at: daysBefore(1) },
        { address: "192.0.2.2", country: null, expires_at: at("2026-11-16T11:00:00Z") },
      ])
      .execute();
    // Read counts: 14 October is 32 days back, past the 31 kept; 15 October is kept.
    await db
      .insertInto("article_read_day")
      .values([
        { article_id: 1, day: "2026-10-14", reads: 4 },
        { article_id: 1, day: "2026-10-15", reads: 2 },
        { article_id: 2, day: "2026-11-15", reads: 1 },
      ])
      .execute();

    // Media uploads (ADR 083): one cut off two days ago, one still arriving, and an old one that ended.
    const upload = (id: string, uploadedAt: string, complete: 0 | 1) => ({
      id,
      kind: "audio" as const,
      content_type: "audio/mpeg",
      extension: "mp3",
      bytes: 3,
      chunk_bytes: 1_048_576,
      sha256: null,
      duration_seconds: null,
      uploaded_by: "editor@example.org",
      uploaded_at: uploadedAt,
      complete,
    });
    await db
      .insertInto("media_file")
      .values([upload("cut-off", daysBefore(2), 0), upload("arriving", at("2026-11-15T11:50:00Z"), 0), upload("ended", daysBefore(9), 1)])
      .execute();
    await db
      .insertInto("media_chunk")
      .values(
        ["cut-off", "arriving"].map((file_id) => ({
          file_id,
          seq: 0,
          bytes: 3,
          data: Buffer.from("ID3"),
          storage_key: `media/${file_id}/0`,
        })),
      )
      .execute();

    const report = await runHousekeeping(db, createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "whsec_test" }), NOW);
    expect((await db.selectFrom("media_file").select("id").orderBy("id").execute()).map((f) => f.id)).toEqual(["arriving", "ended"]);
    expect((await db.selectFrom("media_chunk").select("file_id").execute()).map((c) => c.file_id)).toEqual(["arriving"]);
    expect(report).toEqual({
      abandonedOrders: 0,
      sessions: 2,
      meterReads: 3,
      rateLimits: 1,
      guestCarts: 1,
      passwordResets: 1,
      emailChanges: 1,
      geoLookups: 1,
      articleReadDays: 1,
      abandonedUploads: 1,
      reportDays: 366,
      searchResliced: false,
    });
    expect(describeHousekeeping(report)).toBe(
      "Housekeeping: cancelled 0 abandoned order(s); removed 2 expired session(s), 3 meter read(s) of past months, 1 ended rate-limit window(s), 1 idle guest cart(s), 1 expired password-reset token(s), 1 expired e-mail-change link(s), 1 expired geo lookup(s), 1 day(s) of article read counts older than 31 days, 1 media upload(s) that never ended; rolled up 366 day(s) of reports",
    );

    expect(await db.selectFrom("user_session").select("id_hash").where("user_id", "=", user.id).execute()).toEqual([{ id_hash: "s-live" }]);
    expect(await db.selectFrom("meter_read").select(["meter_key", "period"]).where("meter_key", "like", "v:%").execute()).toEqual([
      { meter_key: "v:now", period: "2026-11" },
    ]);
    expect((await db.selectFrom("rate_limit").select("key").orderBy("key").execute()).map((r) => r.key)).toEqual(
      expect.arrayContaining(["day", "open"]),
    );
    expect(await db.selectFrom("rate_limit").select("key").where("key", "=", "ended").execute()).toEqual([]);
    const carts = (await db.selectFrom("cart").select("id").execute()).map((c) => c.id);
    expect(carts).toEqual(expect.arrayContaining([recentGuest, orderedGuest, idleReaderCart]));
    expect(carts).not.toContain(idleGuest);
    expect(await db.selectFrom("cart_line").select("id").where("cart_id", "=", idleGuest).execute()).toEqual([]);
    expect(await db.selectFrom("password_reset").select("token_hash").where("user_id", "=", user.id).execute()).toEqual([
      { token_hash: "r-live" },
    ]);
    expect(await db.selectFrom("email_change").select("token_hash").where("user_id", "=", user.id).execute()).toEqual([
      { token_hash: "e-live" },
    ]);
    expect(await db.selectFrom("geo_country").select("address").execute()).toEqual([{ address: "192.0.2.2" }]);
    expect(await db.selectFrom("article_read_day").select(["article_id", "day"]).orderBy("day").execute()).toEqual([
      { article_id: 1, day: "2026-10-15" },
      { article_id: 2, day: "2026-11-15" },
    ]);

    expect({
      sessions: await count("user_session"),
      meter: await count("meter_read"),
      rateLimits: await count("rate_limit"),
      carts: await count("cart"),
      resets: await count("password_reset"),
    }).toEqual({
      sessions: before.sessions + 1,
      meter: before.meter + 1,
      rateLimits: before.rateLimits + 2,
      carts: before.carts + 3,
      resets: before.resets + 1,
    });

    // A second instance running at the same moment finds nothing left to do.
    const again = await Promise.all(
      [1, 2].map(() => runHousekeeping(db, createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "whsec_test" }), NOW)),
    );
    const nothing = {
      abandonedOrders: 0,
      sessions: 0,
      meterReads: 0,
      rateLimits: 0,
      guestCarts: 0,
      passwordResets: 0,
      emailChanges: 0,
      geoLookups: 0,
      articleReadDays: 0,
      abandonedUploads: 0,
      reportDays: 0,
      searchResliced: false,
    };
    expect(again).toEqual([nothing, nothing]);
  });

  it("cancels the orders left unpaid past their payment window", async () => {
    const availability = (
      await db.selectFrom("product_availability").select("id").where("status", "=", "A").orderBy("id").executeTakeFirstOrThrow()
    ).id;
    const stale = await insertOrder(db, {
      userId: null,
      email: "late@example.org",
      status: "pending_payment",
      createdAt: daysBefore(2),
      lines: [{ availabilityId: availability }],
    });
    const fresh = await insertOrder(db, {
      userId: null,
      email: "soon@example.org",
      status: "pending_payment",
      createdAt: daysBefore(0.5),
      lines: [{ availabilityId: availability }],
    });
    await db.updateTable("store_order").set({ provider_session_id: null }).where("id", "in", [stale.id, fresh.id]).execute();
    const report = await runHousekeeping(db, createSandboxProvider(db, { siteUrl: "https://site", webhookSecret: "whsec_test" }), NOW);
    expect(report.abandonedOrders).toBe(1);
    const statuses = await db.selectFrom("store_order").select(["id", "status"]).where("id", "in", [stale.id, fresh.id]).execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [stale.id]: "cancelled", [fresh.id]: "pending_payment" });
  });
});
