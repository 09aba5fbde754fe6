import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsDataLayer, layerQuota } from "~/server/readers/analytics";
import { readerById } from "~/server/readers/signed-in";
import { linkPrintSubscription, registerPrintSubscriber } from "~/server/accounts/print-subscribers";
import { markEmailVerified } from "~/server/accounts/email-change";
import { findUserById, insertUser, type User } from "~/server/accounts/users";
import type { Database } from "~/server/db/connection";
import { carryOverReads, openOnMeter, readQuota } from "~/server/paywall/meter";
import { userKey, visitorKey } from "~/server/readers/keys";
import { decideOffer, recordRead, type OfferRequest, type OfferRules } from "~/server/paywall/offers";
import { WebhookSignatureError } from "~/server/payments/provider";
import { CARD_DECLINED, createSandboxProvider, SANDBOX_CARDS, signSandboxPayload } from "~/server/payments/sandbox";
import {
  activateCheckout,
  findCheckout,
  handlePaymentEvent,
  issueCheckoutKey,
  settleCheckout,
  startCheckout,
} from "~/server/subscriptions/checkout";
import { grantSubscription, subscriberStatus } from "~/server/subscriptions/entitlements";
import { planChangeFor } from "~/server/subscriptions/plan-change";
import { findPlan } from "~/server/subscriptions/plans";
import { seededTestDatabase } from "~/tests/helpers/test-db";

const RULES: OfferRules = {
  addressCeiling: 0,
  guestLimit: 4,
  ascendLimit: 3,
  registeredLimit: 8,
  tags: { article: "tag-article", top50: "tag-top50", cases: "tag-cases", "visual-library": "tag-vl" },
};
const SECRET = "sandbox-webhook-secret-for-tests-0123456789";
const SITE = "http://127.0.0.1:9";
const NOVEMBER = new Date("2026-11-15T12:00:00Z");
/** A billing address where no sales tax is due: the figures of the tests that are not about tax. */
const UNTAXED = { countryCode: "GB", region: null };

const DECEMBER = new Date("2026-12-01T00:00:01Z");

let db: Database;
let close: () => Promise<void>;
let articleIds: number[];
let userCount = 0;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
  articleIds = (await db.selectFrom("article").select("id").orderBy("id").execute()).map((r) => r.id);
});
afterAll(() => close());

async function newUser(): Promise<User> {
  userCount += 1;
  const user = await insertUser(db, {
    firstName: "Mae",
    lastName: "Jemison",
    email: `reader${userCount}.${Date.now()}@example.org`,
    password: "Orbit9!station",
    optIn: false,
  });
  return user!;
}

const article = (i: number, extra: Partial<{ tier: "article" | "top50" | "cases" | "visual-library"; ascend: boolean }> = {}) => ({
  id: articleIds[i]!,
  tier: extra.tier ?? ("article" as const),
  ascend: extra.ascend ?? false,
});

describe("the meter", () => {
  it("counts distinct articles per calendar month, re-opens counted ones for free, and refuses past the limit", async () => {
    const key = visitorKey("meter-visitor-aaaaaaaaa");
    const open = (i: number, now = NOVEMBER) => openOnMeter(db, { key, meter: "article", articleId: articleIds[i]!, limit: 4 }, now);
    expect((await open(0)).quota).toEqual({ limit: 4, count: 1, remaining: 3 });
    expect((await open(0)).quota).toEqual({ limit: 4, count: 1, remaining: 3 });
    await open(1);
    await open(2);
    expect(await open(3)).toEqual({ allowed: true, quota: { limit: 4, count: 4, remaining: 0 } });
    expect(await open(4)).toEqual({ allowed: false, quota: { limit: 4, count: 4, remaining: 0 } });
    expect((await open(2)).allowed).toBe(true);
    // A new month starts afresh.
    expect(await open(4, DECEMBER)).toEqual({ allowed: true, quota: { limit: 4, count: 1, remaining: 3 } });
  });

  it("lets exactly the limit of racing reads through", async () => {
    const key = visitorKey("meter-visitor-racing123");
    const outcomes = await Promise.all(
      articleIds.slice(0, 12).map((id) => openOnMeter(db, { key, meter: "article", articleId: id, limit: 4 }, NOVEMBER)),
    );
    expect(outcomes.filter((o) => o.allowed).length).toBe(4);
    expect((await readQuota(db, key, "article", 4, NOVEMBER)).count).toBe(4);
  });

  it("keeps a guest's reads when they register", async () => {
    const visitor = "meter-visitor-carryover";
    for (const i of [0, 1, 2])
      await openOnMeter(db, { key: visitorKey(visitor), meter: "article", articleId: articleIds[i]!, limit: 4 }, NOVEMBER);
    await openOnMeter(db, { key: visitorKey(visitor), meter: "ascend", articleId: articleIds[5]!, limit: 3 }, NOVEMBER);
    const user = await newUser();
    await carryOverReads(db, visitor, user.id, NOVEMBER);
    expect(await readQuota(db, userKey(user.id), "article", 8, NOVEMBER)).toEqual({ limit: 8, count: 4, remaining: 4 });
    // Carrying over twice counts nothing twice.
    await carryOverReads(db, visitor, user.id, NOVEMBER);
    expect((await readQuota(db, userKey(user.id), "article", 8, NOVEMBER)).count).toBe(4);
  });
});

/** As the article page asks: the read recorded on the meter, then the offer decided on it. */
async function offerFor(database: Database, rules: OfferRules, request: OfferRequest, now: Date) {
  return decideOffer(rules, request, await recordRead(database, rules, request, now));
}

describe("the offer service", () => {
  const guest = (id: string, network: string | null = null) => ({ kind: "guest" as const, visitorId: id, network });

  it("gives guests full content, then the registration wall; on a reading list, the waiver, then the reading-list wall", async () => {
    const reader = guest("offer-guest-aaaaaaaaaaa");
    const plain = (i: number) => offerFor(db, RULES, { reader, article: article(i), readingList: false, gift: false }, NOVEMBER);
    expect(await plain(0)).toMatchObject({ experience: "full-content", fullContent: true, wall: null, abTag: "tag-article" });
    for (const i of [1, 2, 3]) await plain(i);
    expect(await plain(4)).toMatchObject({ experience: "enable-anonymous-paywall", fullContent: false, wall: "registration" });
    const listed = await offerFor(db, RULES, { reader, article: article(5), readingList: true, gift: false }, NOVEMBER);
    expect(listed).toMatchObject({ experience: "reading-list-paywall", fullContent: false, wall: "registration" });
    const fresh = await offerFor(
      db,
      RULES,
      { reader: guest("offer-guest-bbbbbbbbbbb"), article: article(5), readingList: true, gift: false },
      NOVEMBER,
    );
    expect(fresh).toMatchObject({ experience: "waiver-reading-list", fullContent: true });
  });

  it("caps guest reads from one network at the ceiling, whatever visitor cookies it sends, and counts no one else", async () => {
    const rules = { ...RULES, addressCeiling: 6 };
    const network = "198.51.100.7";
    const open = (visitor: string, i: number, net: string | null = network, now = NOVEMBER) =>
      offerFor(db, rules, { reader: guest(visitor, net), article: article(i), readingList: false, gift: false }, now);
    // A client that clears its cookie after every read: each read brings a fresh visitor id.
    const outcomes = [];
    for (let i = 0; i < 9; i++) outcomes.push(await open(`ceiling-visitor-${String(i).padStart(8, "0")}`, i));
    expect(outcomes.map((o) => o.fullContent)).toEqual([true, true, true, true, true, true, false, false, false]);
    expect(outcomes[6]).toMatchObject({ experience: "enable-anonymous-paywall", wall: "registration" });
    // A visitor already counted re-opens their article; a new one is walled however much meter it has left.
    expect((await open("ceiling-visitor-00000002", 2)).fullContent).toBe(true);
    expect((await open("ceiling-visitor-00000002", 12)).fullContent).toBe(false);
    // Another network, an unknown address, a registered reader and next month are not held back.
    expect((await open("ceiling-visitor-other000", 7, "198.51.100.8")).fullContent).toBe(true);
    expect((await open("ceiling-visitor-noaddress", 7, null)).fullContent).toBe(true);
    const user = await newUser();
    expect(
      (
        await offerFor(
          db,
          rules,
          { reader: { kind: "registered", userId: user.id }, article: article(8), readingList: false, gift: false },
          NOVEMBER,
        )
      ).fullContent,
    ).toBe(true);
    expect((await open("ceiling-visitor-december", 7, network, DECEMBER)).fullContent).toBe(true);
    const rows = await db
      .selectFrom("meter_read")
      .select("meter_key")
      .where("client_address", "=", network)
      .where("period", "=", "2026-11")
      .execute();
    expect(rows).toHaveLength(6);
  });

  it("walls a client that cannot be metered, lets a verified crawler read, and writes no meter rows for either", async () => {
    const before = await db
      .selectFrom("meter_read")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const unmetered = await offerFor(
      db,
      RULES,
      { reader: { kind: "unmetered" }, article: article(3), readingList: false, gift: false },
      NOVEMBER,
    );
    expect(unmetered).toMatchObject({ experience: "enable-anonymous-paywall", fullContent: false, wall: "registration", quota: null });
    const listed = await offerFor(
      db,
      RULES,
      { reader: { kind: "unmetered" }, article: article(3), readingList: true, gift: false },
      NOVEMBER,
    );
    expect(listed).toMatchObject({ experience: "reading-list-paywall", fullContent: false });
    const crawler = await offerFor(
      db,
      RULES,
      { reader: { kind: "crawler" }, article: article(3), readingList: false, gift: false },
      NOVEMBER,
    );
    expect(crawler).toMatchObject({ experience: "full-content", fullContent: true, quota: null });
    const after = await db
      .selectFrom("meter_read")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("puts the wall in front of an expired gift link, whatever the meter has left, except for subscribers", async () => {
    const expired = (reader: Parameters<typeof decideOffer>[1]["reader"]) =>
      offerFor(db, RULES, { reader, article: article(6), readingList: false, gift: false, expiredGift: true }, NOVEMBER);
    expect(await expired(guest("expired-gift-guest00000"))).toMatchObject({ fullContent: false, wall: "registration", quota: null });
    const user = await newUser();
    expect(await expired({ kind: "registered", userId: user.id })).toMatchObject({ fullContent: false, wall: "subscribe", quota: null });
    expect(await expired({ kind: "subscriber", userId: user.id })).toMatchObject({ fullContent: true, wall: null });
    expect((await readQuota(db, visitorKey("expired-gift-guest00000"), "article", 4, NOVEMBER)).count).toBe(0);
  });

  it("meters Ascend pages on their own allowance of 3", async () => {
    const reader = guest("offer-guest-ascend00000");
    for (const i of [0, 1, 2]) {
      expect(
        await offerFor(db, RULES, { reader, article: article(i, { ascend: true }), readingList: false, gift: false }, NOVEMBER),
      ).toMatchObject({
        experience: "ascend-full-content",
        meter: "ascend",
      });
    }
    expect(
      (await offerFor(db, RULES, { reader, article: article(3, { ascend: true }), readingList: false, gift: false }, NOVEMBER)).wall,
    ).toBe("registration");
    // The article meter is untouched.
    expect((await offerFor(db, RULES, { reader, article: article(4), readingList: false, gift: false }, NOVEMBER)).quota).toEqual({
      limit: 4,
      count: 1,
      remaining: 3,
    });
  });

  it("shows registered readers the subscribe wall with the tag of the article's tier", async () => {
    const user = await newUser();
    const reader = { kind: "registered" as const, userId: user.id };
    for (let i = 0; i < 8; i++) await offerFor(db, RULES, { reader, article: article(i), readingList: false, gift: false }, NOVEMBER);
    const tags = [];
    for (const tier of ["article", "top50", "cases", "visual-library"] as const) {
      const offer = await offerFor(db, RULES, { reader, article: article(10, { tier }), readingList: false, gift: false }, NOVEMBER);
      expect(offer).toMatchObject({ experience: "enable-paywall", wall: "subscribe", fullContent: false });
      tags.push(offer.abTag);
    }
    expect(tags).toEqual(["tag-article", "tag-top50", "tag-cases", "tag-vl"]);
  });

  it("opens everything to subscribers and to gift links, without metering", async () => {
    const user = await newUser();
    const subscriber = { kind: "subscriber" as const, userId: user.id };
    expect(await offerFor(db, RULES, { reader: subscriber, article: article(1), readingList: true, gift: false }, NOVEMBER)).toMatchObject({
      experience: "full-content-reading-list",
      quota: null,
    });
    expect(
      (await offerFor(db, RULES, { reader: subscriber, article: article(1, { ascend: true }), readingList: false, gift: false }, NOVEMBER))
        .experience,
    ).toBe("ascend-full-content");
    const reader = guest("offer-guest-gift0000000");
    for (let i = 0; i < 4; i++) await offerFor(db, RULES, { reader, article: article(i), readingList: false, gift: false }, NOVEMBER);
    expect(await offerFor(db, RULES, { reader, article: article(9), readingList: false, gift: true }, NOVEMBER)).toMatchObject({
      fullContent: true,
      quota: null,
    });
    expect((await readQuota(db, visitorKey("offer-guest-gift0000000"), "article", 4, NOVEMBER)).count).toBe(4);
  });
});

describe("subscriptions", () => {
  it("gives access only inside the access period, and not when restricted", async () => {
    const user = await newUser();
    const start = new Date("2026-01-01T00:00:00Z");
    await grantSubscription(db, {
      userId: user.id,
      roleCode: "MRSUB_GOOD",
      source: "web",
      reference: `t-${user.id}`,
      accessStart: start,
      accessEnd: new Date("2026-12-31T00:00:00Z"),
    });
    expect((await subscriberStatus(db, user.id, NOVEMBER))?.tier).toEqual({ name: "Good", caption: "Digital" });
    expect(await subscriberStatus(db, user.id, new Date("2027-01-02T00:00:00Z"))).toBeNull();
    await db.updateTable("subscription").set({ status: "restricted" }).where("user_id", "=", user.id).execute();
    expect(await subscriberStatus(db, user.id, NOVEMBER)).toBeNull();
  });

  it("takes the tier from the highest role code", async () => {
    const user = await newUser();
    const grant = (roleCode: string) =>
      grantSubscription(db, {
        userId: user.id,
        roleCode,
        source: "web",
        reference: `${roleCode}-${user.id}`,
        accessStart: new Date("2026-01-01"),
        accessEnd: new Date("2027-01-01"),
      });
    await grant("MRSUB_BETTER");
    await grant("MRSUB_EXECUTIVE");
    expect((await subscriberStatus(db, user.id, NOVEMBER))?.tier).toEqual({ name: "Executive", caption: null });
    await grant("MRSUB_ALLACCESS");
    expect((await subscriberStatus(db, user.id, NOVEMBER))?.tier).toEqual({ name: "All Access", caption: "All Access" });
  });

  it("links a print subscriber's account with the tier of their print subscription", async () => {
    const linked = await registerPrintSubscriber(
      db,
      { email: "ruth.okafor@example.com", accountNumber: "mr10045521", password: "Orbit9!station", optIn: false },
      NOVEMBER,
    );
    expect(linked.ok).toBe(true);
    if (!linked.ok) return;
    const status = await subscriberStatus(db, linked.user.id, NOVEMBER);
    expect(status?.tier).toEqual({ name: "Better", caption: "Digital + Print" });
    // The seed's print subscription runs to a day after seeding (content/accounts.json), through its end.
    const { access_end } = await db
      .selectFrom("print_subscriber")
      .select("access_end")
      .where("account_number", "=", "MR10045521")
      .executeTakeFirstOrThrow();
    expect(status?.entitlements[0]).toMatchObject({ source: "print", accessEnd: `${access_end}T23:59:59.999Z` });
    // The analytics view names the print record's source, its country and its account number.
    const reader = (await readerById(db, linked.user.id, NOVEMBER))!;
    const quota = await layerQuota(
      db,
      { reader, visitorId: undefined, limits: { guest: 4, registered: 10 }, pageCountsRead: false },
      NOVEMBER,
    );
    const layer = analyticsDataLayer({ signedIn: { reader, following: [] }, quota }, NOVEMBER);
    expect(layer.user.subscriptions).toEqual([
      expect.objectContaining({ subscriptionSourceCode: "CDS_US", country: "US", accountNumber: "MR10045521", orderValue: null }),
    ]);
  });

  it("connects a print subscription to an existing account only under the account's own address", async () => {
    const inserted = (await insertUser(db, {
      firstName: "Anders",
      lastName: "Lindqvist",
      email: "anders.lindqvist@example.co.uk",
      password: "Orbit9!station",
      optIn: false,
    }))!;
    // As after following a mailed confirmation link (email-change.ts).
    await markEmailVerified(db, inserted.id, NOVEMBER);
    const owner = (await findUserById(db, inserted.id))!;
    const stranger = await newUser();
    expect(await linkPrintSubscription(db, stranger, "MR20077310", NOVEMBER)).toBe("no-active-subscription");
    expect(await subscriberStatus(db, stranger.id, NOVEMBER)).toBeNull();
    expect(await linkPrintSubscription(db, owner, "MR00000000", NOVEMBER)).toBe("no-active-subscription");
    expect(await linkPrintSubscription(db, owner, "mr20077310", NOVEMBER)).toBe("linked");
    expect((await subscriberStatus(db, owner.id, NOVEMBER))?.tier.name).toBe("Best");
    // Linking again grants nothing twice.
    expect(await linkPrintSubscription(db, owner, "MR20077310", NOVEMBER)).toBe("linked");
    expect(await db.selectFrom("subscription").select("id").where("user_id", "=", owner.id).execute()).toHaveLength(1);
  });

  it("does not link a lapsed print subscription", async () => {
    const lapsed = (await insertUser(db, {
      firstName: "Marta",
      lastName: "Quintero",
      email: "lapsed.reader@example.com",
      password: "Orbit9!station",
      optIn: false,
    }))!;
    expect(await linkPrintSubscription(db, lapsed, "MR10019964", NOVEMBER)).toBe("no-active-subscription");
  });
});

describe("subscription checkout through the sandbox provider", () => {
  const sandbox = () => createSandboxProvider(db, { siteUrl: SITE, webhookSecret: SECRET });

  async function begin(planId = "digital") {
    const user = await newUser();
    const provider = sandbox();
    const started = await startCheckout(
      db,
      provider,
      {
        userId: user.id,
        email: user.email,
        plan: findPlan(planId)!,
        abTag: "tag-article",
        siteUrl: SITE,
        idempotencyKey: issueCheckoutKey(),
        billing: UNTAXED,
      },
      NOVEMBER,
    );
    if (!started.ok) throw new Error(started.problem);
    const sessionId = started.url.split("/").pop()!;
    return { user, provider, started, sessionId };
  }

  it("opens a hosted checkout for the plan's price and the reader's address", async () => {
    const { provider, started, sessionId } = await begin("premium");
    expect(started.url).toBe(`${SITE}/sandbox-checkout/${sessionId}`);
    expect(await provider.payment(sessionId)).toMatchObject({
      amountCents: 2000,
      reference: started.checkoutId,
      status: "open",
      description: "Premium subscription, monthly",
    });
  });

  it("declines the decline card, refuses other numbers, and grants nothing until paid", async () => {
    const { user, provider, started, sessionId } = await begin();
    expect(await provider.pay(sessionId, SANDBOX_CARDS.declined)).toEqual({ ok: false, error: CARD_DECLINED });
    expect((await provider.pay(sessionId, "4111 1111 1111 1111")).ok).toBe(false);
    expect(await settleCheckout(db, provider, started.checkoutId, user.id, NOVEMBER)).toBe("pending");
    expect(await subscriberStatus(db, user.id, NOVEMBER)).toBeNull();
  });

  it("activates once on a signed callback, however often it is replayed, and the return trip agrees", async () => {
    const { user, provider, started, sessionId } = await begin();
    const paid = await provider.pay(sessionId, "4242 4242 4242 4242");
    if (!paid.ok) throw new Error(paid.error);
    expect(paid.redirectUrl).toBe(`${SITE}/subscriptions/complete?checkout=${started.checkoutId}&session_id=${sessionId}`);
    const event = provider.parseWebhook(paid.callback.body, paid.callback.signature);
    const outcomes = await Promise.all([
      handlePaymentEvent(db, event, NOVEMBER),
      handlePaymentEvent(db, event, NOVEMBER),
      handlePaymentEvent(db, event, NOVEMBER),
    ]);
    expect(outcomes.filter((o) => o === "activated")).toHaveLength(1);
    expect(await settleCheckout(db, provider, started.checkoutId, user.id, NOVEMBER)).toBe("activated");
    expect(await activateCheckout(db, started.checkoutId, NOVEMBER)).toBe(false);
    const rows = await db.selectFrom("subscription").select(["role_code", "access_end"]).where("user_id", "=", user.id).execute();
    expect(rows).toEqual([{ role_code: "MRSUB_GOOD", access_end: "2026-12-15T12:00:00.000Z" }]);
    // Paying the same session again is refused.
    expect(await provider.pay(sessionId, SANDBOX_CARDS.succeeds)).toEqual({ ok: false, error: "This checkout has already been paid." });
  });

  it("activates on the reader's return when the callback never arrived", async () => {
    const { user, provider, started, sessionId } = await begin("executive");
    expect((await provider.pay(sessionId, SANDBOX_CARDS.succeeds, NOVEMBER)).ok).toBe(true);
    expect(await settleCheckout(db, provider, started.checkoutId, user.id, NOVEMBER)).toBe("activated");
    expect((await subscriberStatus(db, user.id, NOVEMBER))?.tier.name).toBe("Executive");
  });

  it("keeps each reader's checkouts to themselves", async () => {
    const { started } = await begin();
    const stranger = await newUser();
    expect(await findCheckout(db, started.checkoutId, stranger.id)).toBeUndefined();
    expect(await settleCheckout(db, sandbox(), started.checkoutId, stranger.id)).toBe("unknown");
  });

  it("opens one checkout and one payment page for the same form posted three times at once", async () => {
    const user = await newUser();
    const provider = sandbox();
    const input = {
      userId: user.id,
      email: user.email,
      plan: findPlan("digital")!,
      abTag: "direct",
      siteUrl: SITE,
      idempotencyKey: issueCheckoutKey(),
      billing: UNTAXED,
    };
    const started = await Promise.all([1, 2, 3].map(() => startCheckout(db, provider, input, NOVEMBER)));
    expect(new Set(started.map((s) => (s.ok ? s.url : s.problem))).size).toBe(1);
    expect(await db.selectFrom("subscription_checkout").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("sandbox_payment").select("id").where("customer_email", "=", user.email).execute()).toHaveLength(1);
    // Another reader cannot use that form's key.
    const stranger = await newUser();
    expect(await startCheckout(db, provider, { ...input, userId: stranger.id }, NOVEMBER)).toEqual({ ok: false, problem: "bad-key" });
  });

  it("replaces the current plan with a new one, carrying the time left over", async () => {
    const user = await newUser();
    const provider = sandbox();
    const buy = async (planId: string, at: Date) => {
      const started = await startCheckout(
        db,
        provider,
        {
          userId: user.id,
          email: user.email,
          plan: findPlan(planId)!,
          abTag: "direct",
          siteUrl: SITE,
          idempotencyKey: issueCheckoutKey(),
          billing: UNTAXED,
        },
        at,
      );
      if (!started.ok) throw new Error(started.problem);
      expect(await activateCheckout(db, started.checkoutId, at)).toBe(true);
    };
    await buy("digital", NOVEMBER);
    expect(await planChangeFor(db, user.id, findPlan("premium")!, new Date("2026-11-20T12:00:00Z"))).toMatchObject({
      kind: "change",
      current: { plan: { id: "digital" }, accessEnd: "2026-12-15T12:00:00.000Z" },
      newAccessEnd: "2027-01-15T12:00:00.000Z",
    });
    await buy("premium", new Date("2026-11-20T12:00:00Z"));
    const active = await db
      .selectFrom("subscription")
      .select(["role_code", "access_end"])
      .where("user_id", "=", user.id)
      .where("status", "=", "active")
      .execute();
    expect(active).toEqual([{ role_code: "MRSUB_BEST", access_end: "2027-01-15T12:00:00.000Z" }]);
    expect((await subscriberStatus(db, user.id, new Date("2026-11-21T00:00:00Z")))?.tier.name).toBe("Best");
  });

  it("keeps one active plan when two paid checkouts activate at the same moment", async () => {
    const user = await newUser();
    const ids = await Promise.all(
      ["digital", "premium", "executive"].map(async (planId) => {
        const started = await startCheckout(
          db,
          sandbox(),
          {
            userId: user.id,
            email: user.email,
            plan: findPlan(planId)!,
            abTag: "direct",
            siteUrl: SITE,
            idempotencyKey: issueCheckoutKey(),
            billing: UNTAXED,
          },
          NOVEMBER,
        );
        if (!started.ok) throw new Error(started.problem);
        return started.checkoutId;
      }),
    );
    expect(await Promise.all(ids.map((id) => activateCheckout(db, id, NOVEMBER)))).toEqual([true, true, true]);
    const active = await db
      .selectFrom("subscription")
      .select(["role_code", "access_end"])
      .where("user_id", "=", user.id)
      .where("status", "=", "active")
      .execute();
    expect(active).toHaveLength(1);
    // Each payment's time is kept: a month, a month and a year, in whichever order they landed.
    expect(active[0]!.access_end).toBe("2028-01-15T12:00:00.000Z");
  });

  it("rejects callbacks with a wrong, missing, stale or tampered signature", async () => {
    const provider = sandbox();
    const body = JSON.stringify({ id: "evt_1", type: "checkout.completed", data: { sessionId: "sbx_x", reference: "chk_x", paid: true } });
    expect(() => provider.parseWebhook(body, null)).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(body, signSandboxPayload("another-secret-entirely-0123456789", body))).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.parseWebhook(body, signSandboxPayload(SECRET, body, new Date(Date.now() - 3_600_000)))).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.parseWebhook(body.replace("chk_x", "chk_y"), signSandboxPayload(SECRET, body))).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(body, "t=abc,v1=zz")).toThrow(WebhookSignatureError);
    expect(provider.parseWebhook(body, signSandboxPayload(SECRET, body))).toMatchObject({ type: "checkout.completed", reference: "chk_x" });
  });
});
