import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantPrintSubscription } from "~/server/accounts/print-subscribers";
import { createSession } from "~/server/accounts/sessions";
import { insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { analyticsSubscriptions } from "~/server/readers/analytics";
import { dismiss } from "~/server/readers/dismissals";
import { userKey } from "~/server/readers/keys";
import { readerById, readerForSession } from "~/server/readers/signed-in";
import { createCart } from "~/server/store/cart";
import { grantSubscription, subscriberStatus } from "~/server/subscriptions/entitlements";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

// A signed-in request reads its reader in one statement (ADR 095): the account, the cart, the
// dismissed messages and every subscription, the status made of those giving access now.

let db: Database;
let close: () => Promise<void>;
let counter = 0;
const NOW = new Date("2030-03-01T12:00:00.000Z");

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

async function newReader(): Promise<User> {
  counter += 1;
  return (await insertUser(
    db,
    {
      firstName: "Ida",
      lastName: "Marsh",
      email: `signed-in${counter}.${Date.now()}@example.org`,
      password: "Correct7horse!",
      optIn: true,
    },
    NOW,
  ))!;
}

describe(`the signed-in reader (${dialectName})`, () => {
  it("reads a reader without subscriptions, cart or dismissals from their session", async () => {
    const user = await newReader();
    const reader = await readerForSession(db, await createSession(db, user.id, 30, NOW), NOW);
    expect(reader).toEqual({ user, lastVisitAt: NOW.toISOString(), cartId: null, dismissed: [], subscriber: null, subscriptions: [] });
    expect(await readerById(db, user.id, NOW)).toEqual(reader);
  });

  it("reads the cart, the dismissed messages and each subscription, with the status of those giving access", async () => {
    const user = await newReader();
    const cartId = await createCart(db, user.id);
    await dismiss(db, userKey(user.id), "onboarding", NOW);
    await dismiss(db, userKey(user.id), "help:my-library", NOW);
    const accountNumber = `MRS${process.pid}${counter}`;
    await db
      .insertInto("print_subscriber")
      .values({
        account_number: accountNumber,
        email: user.email,
        first_name: "Ida",
        last_name: "Marsh",
        source: "CDS_UK",
        subscription_code: "PRINT-BEST",
        active: 1,
        access_start: "2030-01-01",
        access_end: "2030-12-31",
      })
      .execute();
    await grantPrintSubscription(db, user.id, {
      accountNumber,
      firstName: "Ida",
      lastName: "Marsh",
      subscriptionCode: "PRINT-BEST",
      accessStart: "2030-01-01",
      accessEnd: "2030-12-31",
    });
    // A lapsed web plan beside it: listed, but no part of the status.
    await grantSubscription(
      db,
      {
        userId: user.id,
        roleCode: "digital",
        source: "web",
        reference: `lapsed-${accountNumber}`,
        accessStart: new Date("2029-01-01T00:00:00Z"),
        accessEnd: new Date("2029-02-01T00:00:00Z"),
      },
      new Date("2029-01-01T00:00:00Z"),
    );

    const reader = (await readerForSession(db, await createSession(db, user.id, 30, NOW), NOW))!;
    expect(reader.cartId).toBe(cartId);
    expect([...reader.dismissed].sort()).toEqual(["help:my-library", "onboarding"]);
    expect(reader.subscriber).toEqual(await subscriberStatus(db, user.id, NOW));
    expect(reader.subscriber?.entitlements).toEqual([
      { roleCode: reader.subscriber!.roleCodes[0], source: "print", accessEnd: "2030-12-31T23:59:59.999Z" },
    ]);
    // Oldest first: the print subscription was linked today (its grant's own clock), the web plan in 2029.
    expect(analyticsSubscriptions(reader.subscriptions, NOW)).toMatchObject([
      { subscriptionSourceCode: "CDS_UK", subscriptionStatus: "active", country: "GB", accountNumber, orderValue: null },
      { subscriptionSourceCode: "WEB", subscriptionStatus: "expired", timesRenewed: 0, orderValue: null, accountNumber: null },
    ]);
    expect(await readerById(db, user.id, NOW)).toEqual(reader);
  });

  it("reads each request's own reader at its own time, though every request shares one compiled statement", async () => {
    const subscriber = await newReader();
    const other = await newReader();
    await grantSubscription(
      db,
      {
        userId: subscriber.id,
        roleCode: "MRSUB_GOOD",
        source: "web",
        reference: `ends-tomorrow-${subscriber.id}`,
        accessStart: new Date(NOW.getTime() - 86_400_000),
        accessEnd: new Date(NOW.getTime() + 86_400_000),
      },
      NOW,
    );
    const subscriberToken = await createSession(db, subscriber.id, 30, NOW);
    const otherToken = await createSession(db, other.id, 30, NOW);

    expect((await readerForSession(db, subscriberToken, NOW))?.subscriber?.roleCodes).toEqual(["MRSUB_GOOD"]);
    expect(await readerForSession(db, otherToken, NOW)).toMatchObject({ user: { id: other.id }, subscriber: null });
    const twoDaysOn = new Date(NOW.getTime() + 2 * 86_400_000);
    expect(await readerForSession(db, subscriberToken, twoDaysOn)).toMatchObject({ user: { id: subscriber.id }, subscriber: null });
    expect(await readerForSession(db, "not-a-session-token", NOW)).toBeUndefined();
  });

  it("finds no reader for an expired session or a restricted account", async () => {
    const user = await newReader();
    expect(await readerForSession(db, await createSession(db, user.id, 1, NOW), new Date(NOW.getTime() + 2 * 86_400_000))).toBeUndefined();
    const token = await createSession(db, user.id, 30, NOW);
    await db.updateTable("app_user").set({ status: "restricted" }).where("id", "=", user.id).execute();
    expect(await readerForSession(db, token, NOW)).toBeUndefined();
    expect(await readerById(db, user.id, NOW)).toBeUndefined();
  });
});
