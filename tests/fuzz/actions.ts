import fc from "fast-check";
import { hostileText, inUrl, oneOf, type Encoding, type FieldValue, type OriginKind } from "./arbitraries";
import type { World } from "./world";

// Every state-changing action of the site (each route with an `action`, and the API posts),
// described by the fields its forms send and the ids worth aiming at: reader A's (the owner),
// reader B's own, and forged ones. B (or a guest) sends the posts; the desk's are sent by an admin
// inside the desk as well.

/** Reader B, a guest, the admin inside the desk, or (the Admin API only) the admin's API key. */
export type Actor = "reader" | "guest" | "staff" | "key";

export interface ActionTarget {
  name: string;
  method?: "POST" | "GET";
  /** Who may send it; a reader is B, signed in. */
  actors: Actor[];
  path: fc.Arbitrary<string>;
  fields: Record<string, fc.Arbitrary<string>>;
  headers?: fc.Arbitrary<Record<string, string>>;
}

const ids = (w: World, key: keyof World["owner"]) => [w.owner[key], w.hostile.ids[key]];
/** A path with its parameter either a real id or hostile text. */
const pathWith = (prefix: string, real: string[], suffix = "") =>
  fc
    .oneof({ weight: 4, arbitrary: oneOf(...real) }, { weight: 1, arbitrary: hostileText.map((t) => t.slice(0, 200)) })
    .map((p) => `${prefix}${inUrl(p)}${suffix}`);
const redirectTo = (w: World) => oneOf("/", w.article.path, "//evil.example", "/./%5Cevil.example", "https://evil.example/", "/my-library");
const INTENTS_LIBRARY = ["create-folder", "update-folder", "delete-folder", "bulk-add", "bulk-remove"];
const libraryFields = (w: World) => ({
  intent: oneOf(...INTENTS_LIBRARY),
  name: oneOf("Pricing", "Board prep 1", "R&D", "x".repeat(31)),
  description: oneOf("", "Notes"),
  folderId: oneOf(...ids(w, "folderId")),
  itemId: oneOf(...ids(w, "itemId")),
  discard: oneOf(...ids(w, "itemId")),
});
const ADDRESS = {
  firstName: oneOf("Ada"),
  lastName: oneOf("Byron"),
  address1: oneOf("12 Harbour Road"),
  address2: oneOf(""),
  city: oneOf("Albany"),
  state: oneOf("NY", "ZZ"),
  postalCode: oneOf("12207", "ABC"),
  countryCode: oneOf("US", "CA", "XX"),
};

export function actionTargets(w: World): ActionTarget[] {
  const both: Actor[] = ["reader", "guest"];
  return [
    {
      name: "article notes",
      actors: both,
      path: fc.oneof(
        { weight: 5, arbitrary: fc.constant(w.article.path) },
        { weight: 1, arbitrary: oneOf("/2026/01/no-such-article", "/9999/99/x", "/2026/13/%00") },
      ),
      fields: {
        intent: oneOf("add-note", "delete-note"),
        noteId: oneOf(...ids(w, "noteId")),
        paragraph: oneOf("0", "1", "-1", "99999"),
        quote: oneOf(""),
        note: oneOf("A note"),
      },
    },
    {
      name: "give a gift",
      actors: both,
      path: oneOf("/api/article-gift/give-gift", "/article-gift"),
      fields: { url: oneOf(w.article.path, `${w.baseUrl}${w.article.path}`, "https://evil.example/2026/01/x") },
    },
    {
      name: "payment webhook",
      actors: ["guest"],
      path: fc.constant("/api/payments/webhook"),
      fields: {
        type: oneOf("checkout.completed", "payment.succeeded"),
        reference: oneOf(...ids(w, "orderId")),
        id: oneOf(...ids(w, "sandboxId")),
      },
      headers: fc.record({ "X-Sandbox-Signature": oneOf("", "t=1,v1=00", "garbage") }),
    },
    {
      name: "dismiss",
      actors: both,
      path: fc.constant("/dismiss"),
      fields: { item: oneOf("cookie-notice", "newsletter-promo"), via: oneOf("fetcher", ""), redirectTo: redirectTo(w) },
    },
    {
      name: "follow",
      actors: both,
      path: fc.constant("/follow"),
      fields: {
        intent: oneOf("follow", "unfollow", "unfollow-all-newsletters"),
        kind: oneOf("topic", "newsletter", "campaign"),
        target: oneOf("leadership", "strategy", "the-daily"),
        via: oneOf("fetcher", ""),
        redirectTo: redirectTo(w),
      },
    },
    {
      name: "forgot password",
      actors: both,
      path: fc.constant("/forgot-password"),
      fields: { emailAddress: oneOf(w.owner.email, "nobody@example.org"), reCaptchaToken: oneOf("") },
    },
    {
      name: "sign out",
      actors: ["guest"],
      path: oneOf("/logout", "/logout?return=%2F", "/logout?return=%2F.%2F%255Cevil.example"),
      fields: { return: redirectTo(w) },
    },
    {
      name: "my account",
      actors: both,
      path: fc.constant("/my-account"),
      fields: {
        intent: oneOf("profile", "password"),
        displayName: oneOf("Nell", ""),
        emailAddress: oneOf(w.owner.email, w.hostile.ids.email, "new@example.org"),
        industry: oneOf("Media", "Nope"),
        jobTitle: oneOf("Analyst"),
        companySize: oneOf("1 to 4"),
        currentPassword: oneOf("wrong-password"),
        newPassword: oneOf("Another5!pass"),
        confirmPassword: oneOf("Another5!pass"),
      },
    },
    { name: "revoke a gift", actors: both, path: fc.constant("/my-account/gifts"), fields: { giftId: oneOf(...ids(w, "giftId")) } },
    { name: "library", actors: both, path: fc.constant("/my-library?index"), fields: libraryFields(w) },
    { name: "library folder", actors: both, path: pathWith("/my-library/library/", ids(w, "folderSlug")), fields: libraryFields(w) },
    {
      name: "organize item",
      actors: both,
      path: pathWith("/my-library/organize/", ids(w, "itemId")),
      fields: { folderId: oneOf(...ids(w, "folderId")), redirectTo: redirectTo(w) },
    },
    {
      name: "save to library",
      actors: both,
      path: fc.oneof(
        fc.constant(`/my-library/save?type=article&id=${w.article.id}`),
        hostileText.map((t) => `/my-library/save?type=article&id=${inUrl(t.slice(0, 50))}`),
      ),
      fields: {
        type: oneOf("article", "podcast", "video"),
        id: oneOf(w.article.id),
        redirectTo: redirectTo(w),
        via: oneOf("fetcher", ""),
        folderId: oneOf(...ids(w, "folderId")),
        newFolder: oneOf("", "New one"),
      },
    },
    {
      name: "newsletter unsubscribe",
      actors: both,
      path: fc.constant("/newsletters/unsubscribe"),
      fields: { token: oneOf("abc"), "List-Unsubscribe": oneOf("One-Click") },
    },
    { name: "cancel order", actors: both, path: pathWith("/order/", ids(w, "orderId")), fields: { intent: oneOf("cancel") } },
    {
      name: "text size",
      actors: both,
      path: fc.constant("/preferences/text-size"),
      fields: { size: oneOf("large", "standard"), redirectTo: redirectTo(w) },
    },
    { name: "redeem voucher", actors: both, path: fc.constant("/redeem"), fields: { voucher_code: oneOf("SPRING-2026", "") } },
    {
      name: "register",
      actors: both,
      path: oneOf("/register", "/register?redirectTo=%2F.%2F%2Fevil.example"),
      fields: {
        firstName: oneOf("Nell"),
        lastName: oneOf("Ransome"),
        emailAddress: oneOf(w.owner.email, "fresh@example.org"),
        password: oneOf("Lantern5!quay", "short"),
        optIn: oneOf("on"),
        redirectTo: redirectTo(w),
      },
    },
    {
      name: "reset password",
      actors: both,
      path: oneOf("/reset-password", "/reset-password?token=abc"),
      fields: { token: oneOf("abc"), newPassword: oneOf("Another5!pass"), confirmPassword: oneOf("Another5!pass") },
    },
    {
      name: "review order",
      actors: both,
      path: fc.constant("/review-order"),
      fields: { idempotencyKey: oneOf("AAAAAAAAAAAAAAAAAAAAAA"), shownTotal: oneOf("0", "3200", "-1") },
    },
    // A's checkout only with a declined card: a paying card would (rightly) pay A's order.
    {
      name: "sandbox checkout",
      actors: both,
      path: pathWith("/sandbox-checkout/", ids(w, "sandboxId")),
      fields: { cardNumber: oneOf("4000 0000 0000 0002", "1234") },
    },
    {
      name: "share",
      actors: both,
      path: oneOf("/share", `/share?type=article&id=${w.article.id}`),
      fields: {
        intent: oneOf("email", "social"),
        provider: oneOf("linkedin", "x", "facebook"),
        type: oneOf("article", "video", "podcast"),
        id: oneOf(w.article.id),
        from: oneOf("me@example.org"),
        sharedWith: oneOf("a@example.org, b@example.org"),
        description: oneOf(""),
        via: oneOf("fetcher", ""),
      },
    },
    {
      name: "shipping and payment",
      actors: both,
      path: fc.constant("/shipping-payment"),
      fields: {
        intent: oneOf("continue", "country", "promo"),
        email: oneOf("guest@example.org"),
        addressChoice: oneOf("new", "1"),
        ...ADDRESS,
        saveAddress: oneOf("on"),
        shippingMethod: oneOf("standard", "express"),
        promoCode: oneOf("WELCOME10", ""),
      },
    },
    {
      name: "shopping cart",
      actors: both,
      path: fc.constant("/shopping-cart"),
      fields: {
        intent: oneOf("add", "update", "remove", "estimate"),
        productId: oneOf("1001", "1002", "0"),
        type: oneOf("Ship", "Digital", "Perm"),
        quantity: oneOf("1", "2", "0", "1000"),
        productUrl: oneOf("/product/the-patient-ledger/1001"),
        format: oneOf("Hardcover"),
        referral: oneOf("", "12345"),
        lineId: oneOf(...ids(w, "cartLineId")),
        set: oneOf("1"),
        country: oneOf("US", "CA", "XX"),
        region: oneOf("NY", "ON"),
        postalCode: oneOf("12207"),
        via: oneOf("fetcher", ""),
      },
    },
    {
      name: "sign in",
      actors: both,
      path: oneOf("/sign-in", "/sign-in?redirectTo=%2F.%2F%2Fevil.example"),
      fields: {
        username: oneOf(w.owner.email, "nobody@example.org"),
        password: oneOf("wrong-password"),
        redirectTo: redirectTo(w),
        reCaptchaToken: oneOf(""),
      },
    },
    {
      name: "subscriber registration",
      actors: both,
      path: fc.constant("/subscriber-registration"),
      fields: {
        emailAddress: oneOf(w.owner.email, "print@example.org"),
        accountNumber: oneOf("MR-0001", "1"),
        password: oneOf("Lantern5!quay"),
        optIn: oneOf("on"),
      },
    },
    {
      name: "subscription checkout",
      actors: both,
      path: oneOf("/subscriptions/checkout?plan=digital", "/subscriptions/checkout?plan=nope", "/subscriptions/checkout?plan=%00"),
      fields: { plan: oneOf("digital", "print") },
    },
    // Query strings reach the databases through loaders: these must drop what cannot be stored.
    {
      name: "GET search",
      method: "GET",
      actors: both,
      path: hostileText
        .map((t) => `/search?q=${inUrl(t.slice(0, 500))}`)
        .chain((p) => oneOf(p, p.replace("q=", "q=%00"), "/search?q=%00", "/search?q=%C0%AF")),
      fields: {},
    },
    ...deskTargets(w),
    {
      name: "GET paths",
      method: "GET",
      actors: both,
      path: hostileText.chain((t) =>
        oneOf("/order/", "/product/", "/topic/", "/my-library/library/", "/video/", "/podcasts/").map(
          (p) => `${p}${inUrl(t.slice(0, 200))}`,
        ),
      ),
      fields: {},
    },
    // Last, so that the targets before them keep their seeds (a target's seed follows its place).
    ...deskArticleTargets(w),
    ...deskNewsletterTargets(w),
    ...deskMagazineTargets(w),
    ...deskMediaTargets(),
    ...deskStoreTargets(),
  ];
}

/**
 * The desk's forms (ADR 072, 074): the admin sends them inside the desk, and B and guests, who
 * must meet the 404. Leaving the desk is left to B and guests, as it would end the admin's run.
 */
function deskTargets(w: World): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const users = [w.owner.userId, w.hostile.ids.userId, "00000000-0000-0000-0000-000000000000"];
  const roles = oneOf("admin", "editor", "store", "service", "owner", "");
  return [
    {
      name: "desk: door and enrolment",
      actors: everyone,
      path: oneOf("/desk/verify", "/desk/verify?redirectTo=%2Fdesk%2Fstaff", "/desk/enrol?token=made-up", "/desk/enrol"),
      fields: { code: oneOf("000000", "123456", "abcd-efgh-jkmn-pqrs", ""), redirectTo: redirectTo(w) },
    },
    {
      name: "desk: home and own second factor",
      actors: ["reader", "guest"],
      path: oneOf("/desk", "/desk/security", "/desk/audit"),
      fields: { intent: oneOf("leave", "recovery-codes", "other") },
    },
    {
      name: "desk: recovery codes",
      actors: everyone,
      path: oneOf("/desk/security", "/desk/audit"),
      fields: { intent: oneOf("recovery-codes", "other") },
    },
    {
      name: "desk: add staff",
      actors: everyone,
      path: fc.constant("/desk/staff"),
      fields: {
        intent: oneOf("add", "other"),
        email: oneOf(w.owner.email, w.hostile.ids.email, "nobody@example.org", "not-an-address"),
        roles,
      },
    },
    {
      name: "desk: a staff member",
      actors: everyone,
      path: pathWith("/desk/staff/", users),
      fields: { intent: oneOf("roles", "enrolment-link", "remove", "other"), roles },
    },
    {
      name: "desk: revoke an API key",
      actors: everyone,
      path: fc.constant("/desk/api-keys"),
      fields: {
        intent: oneOf("revoke", "other"),
        keyId: oneOf(w.keys.revocableId, "00000000-0000-0000-0000-000000000000", "x".repeat(100)),
      },
    },
    {
      name: "desk: authors and topics, listed",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) =>
        oneOf("/desk/authors?q=", "/desk/topics?q=", "/desk/authors?page=", "/desk/topics?page=").map(
          (p) => `${p}${inUrl(t.slice(0, 300))}`,
        ),
      ),
      fields: {},
    },
    {
      name: "desk: an author, new or saved",
      actors: everyone,
      path: fc.oneof(fc.constant("/desk/authors/new"), pathWith("/desk/authors/", ["1", "2", "99999"])),
      fields: {
        name: oneOf("Fuzz Author", "", "x".repeat(121)),
        slug: oneOf("", "fuzz-author", "helena-okafor", "Not A Slug"),
        role: oneOf("Writer", ""),
        bio: oneOf("A biography.", "", "x".repeat(3001)),
        version: oneOf("1", "2", "0", "-1", "x", "99999999999"),
      },
    },
    {
      name: "desk: a topic, new or saved",
      actors: everyone,
      path: fc.oneof(fc.constant("/desk/topics/new"), pathWith("/desk/topics/", ["1", "20", "99999"])),
      fields: {
        name: oneOf("Fuzz Topic", "Strategy", "R&D", "<b>", ""),
        description: oneOf("About it.", ""),
        subject: oneOf("", "Strategy", "Fuzz Topic", "No Such Subject"),
        subscriberOnly: oneOf("on", "", "true"),
        executiveOnly: oneOf("on", ""),
        version: oneOf("1", "2", "0", "x"),
      },
    },
    // The curation forms carry their list as `item` ids and the `version` they read; a stale or
    // forged one must be a 4xx, never a 500.
    {
      name: "desk: the home page's stories",
      actors: everyone,
      path: fc.constant("/desk/home"),
      fields: curationFields(w),
    },
    {
      name: "desk: new reading list",
      actors: everyone,
      path: fc.constant("/desk/reading-lists/new"),
      fields: readingListFields,
    },
    {
      name: "desk: a reading list",
      actors: everyone,
      path: pathWith("/desk/reading-lists/", ["1", "2", "999999"]),
      fields: { ...readingListFields, ...curationFields(w) },
    },
    {
      name: "desk: reading lists (nothing to post)",
      actors: everyone,
      path: fc.constant("/desk/reading-lists"),
      fields: { intent: oneOf("save", "other") },
    },
    // The image forms take multipart posts; the fuzz's parts carry no file name, so `file`
    // arrives as text, never as a file (the uploads' own tests send files).
    {
      name: "desk: an article's image",
      actors: everyone,
      path: pathWith("/desk/articles/", [w.article.id, "999999"], "/image"),
      fields: {
        intent: oneOf("upload", "remove", "other"),
        file: oneOf("", "\u00ff\u00d8\u00ff", "GIF89a", "<html>"),
        alt: oneOf("", "A chart"),
      },
    },
    {
      name: "desk: an author's photo",
      actors: everyone,
      path: pathWith("/desk/authors/", ["callum-varghese", "no-such-author"], "/photo"),
      fields: { intent: oneOf("upload", "remove", "other"), file: oneOf("", "\u00ff\u00d8\u00ff", "GIF89a"), alt: oneOf("", "Callum") },
    },
  ];
}

/** The desk's article forms (issue 38), aimed at the run's own draft, an unknown id and hostile ones. */
function deskArticleTargets(w: World): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const fields = {
    title: oneOf("A fuzzed headline", ""),
    dek: oneOf("A dek."),
    subDek: oneOf("", "A sub-dek."),
    summary: oneOf("A summary.\r\nOn two lines."),
    body: oneOf("A paragraph.\r\n\r\n## A heading\r\n\r\n- an item", "x".repeat(70_000)),
    slug: oneOf("fuzz-made", "Not A Slug", ""),
    authors: oneOf(w.draft.authors, `${w.draft.authors}, ${w.draft.authors}`, "no-such-author"),
    topics: oneOf(w.draft.topics, "No Such Topic", `${w.draft.topics}, ${w.draft.topics}`),
    contentType: oneOf("Article", "Interview"),
    tier: oneOf("article", "visual-library", "gold"),
    series: oneOf("", "fuzz-series"),
    seriesTitle: oneOf("", "Fuzz series"),
    seriesPart: oneOf("", "1", "-1", "1e309"),
    streams: oneOf("big-ideas", "webinars", "gossip"),
    published: oneOf("2026-03-04", "2026-02-30", "1899-12-31"),
  };
  const version = oneOf("1", "2", "3", "999999", "0", "abc");
  return [
    {
      name: "desk: new article",
      actors: everyone,
      path: fc.constant("/desk/articles/new"),
      fields: { intent: oneOf("create", "other"), ...fields },
    },
    {
      name: "desk: an article (save, publish, schedule, unpublish)",
      actors: everyone,
      path: pathWith("/desk/articles/", [w.draft.id, "99999999"]),
      fields: {
        intent: oneOf("save", "publish", "schedule", "unpublish", "other"),
        version,
        publishAt: oneOf("2099-01-01T09:00", "2020-01-01T09:00", "2026-02-30T09:00", "tomorrow"),
        ...fields,
      },
    },
    {
      name: "desk: restore a revision",
      actors: everyone,
      path: pathWith(`/desk/articles/${w.draft.id}/revisions/`, [w.draft.revisionId, "00000000-0000-0000-0000-000000000000"]),
      fields: { intent: oneOf("restore", "other"), version },
    },
    {
      name: "GET desk articles",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) =>
        oneOf("q", "status", "topic", "author", "type", "page").map((key) => `/desk/articles?${key}=${inUrl(t.slice(0, 300))}&page=2`),
      ),
      fields: {},
    },
    // The article form's enhancements (ADR 085): autosave, the preview pane and the combobox's suggestions.
    {
      name: "desk: autosave an article",
      actors: everyone,
      path: pathWith("/desk/articles/", [w.draft.id, "99999999"], "/autosave"),
      fields: { version, ...fields },
    },
    {
      name: "desk: preview a body",
      actors: everyone,
      path: fc.constant("/desk/articles/preview"),
      fields: { body: fields.body },
    },
    {
      name: "GET desk suggestions",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) =>
        oneOf("authors", "topics", "staff").map((list) => `/desk/articles/suggest?list=${list}&term=${inUrl(t.slice(0, 200))}`),
      ),
      fields: {},
    },
  ];
}

/** The desk's newsletter forms (ADR 084), aimed at the run's own draft issue, an unknown id and hostile ones. */
function deskNewsletterTargets(w: World): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const version = oneOf("1", "2", "3", "999999", "0", "abc");
  const issue = (suffix = "") => pathWith("/desk/newsletters/issues/", [w.issue.id, "999999"], suffix);
  return [
    {
      name: "desk: newsletters (compose)",
      actors: everyone,
      path: fc.constant("/desk/newsletters"),
      fields: { intent: oneOf("compose", "other"), newsletter: oneOf("the-chart-room", "the-insider", "no-such-letter", "") },
    },
    {
      name: "desk: a newsletter issue (save, test, unschedule)",
      actors: everyone,
      path: issue(),
      fields: {
        intent: oneOf("save", "add", "up-0", "down-1", "remove-0", "remove-99999", "test", "unschedule", "sideways-1", ""),
        version,
        subject: oneOf("A fuzzed subject", "", "x".repeat(201), "Two\r\nlines"),
        preheader: oneOf("", "Three reads"),
        intro: oneOf("Hello [there](/email-newsletters).", "", "[x](javascript:alert(1))", "x".repeat(5001)),
        item: oneOf(w.article.id, "1", "0", "999999999", "x"),
        add: oneOf(w.article.path, "no-such-article", ""),
      },
    },
    {
      name: "desk: send a newsletter issue",
      actors: everyone,
      path: issue("/send"),
      fields: {
        intent: oneOf("send", "schedule", "other"),
        version,
        sendAt: oneOf("2099-01-01T09:00", "2020-01-01T09:00", "2026-02-30T09:00", "soon"),
      },
    },
    {
      name: "desk: a newsletter issue's preview (nothing to post)",
      actors: everyone,
      path: issue("/preview"),
      fields: { intent: oneOf("test", "other") },
    },
    {
      name: "GET desk newsletters",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) =>
        oneOf("/desk/newsletters?page=", "/desk/newsletters/issues/").map((p) => `${p}${inUrl(t.slice(0, 300))}`),
      ),
      fields: {},
    },
  ];
}

/** The desk's magazine forms (issue 38): seed issues and an unknown id, with fields that mean something and ones that do not. */
function deskMagazineTargets(w: World): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const fields = {
    code: oneOf("BR2601", "br2602", "BR2511", "7403", "XX1", ""),
    year: oneOf("2026", "1974", "1955", "2101", "x", "1e309"),
    month: oneOf("1", "3", "11", "13", "0", ""),
    title: oneOf("A fuzzed cover story", "", "x".repeat(201)),
    summary: oneOf("A summary.\r\nOn two lines.", ""),
  };
  const article = oneOf(w.article.path, `https://example.org${w.article.path}`, "no-such-article", "/2020/01/", "");
  return [
    {
      name: "desk: new magazine issue",
      actors: everyone,
      path: fc.constant("/desk/magazine/new"),
      fields,
    },
    {
      name: "desk: a magazine issue (fields and contents)",
      actors: everyone,
      path: pathWith("/desk/magazine/", ["1", "2", "99999999"]),
      fields: {
        ...fields,
        version: fc.oneof({ weight: 3, arbitrary: fc.constant("1") }, { weight: 1, arbitrary: oneOf("2", "0", "x", "99999999999") }),
        "features[0].title": oneOf("Letters", "", "x".repeat(301)),
        "features[0].article": article,
        "features[1].title": oneOf("The Long View", ""),
        newTitle: oneOf("", "A new feature"),
        newArticle: article,
        intent: oneOf("save", "add", "up-1", "down-0", "remove-0", "remove-99999", "sideways-1", ""),
      },
    },
    {
      name: "desk: a magazine issue's cover",
      actors: everyone,
      path: pathWith("/desk/magazine/", ["1", "99999999"], "/cover"),
      fields: { intent: oneOf("upload", "remove", "other"), file: oneOf("", "\u00ff\u00d8\u00ff", "GIF89a"), alt: oneOf("", "A cover") },
    },
    {
      name: "desk: magazine issues (nothing to post)",
      actors: everyone,
      path: fc.constant("/desk/magazine"),
      fields: { intent: oneOf("save", "other") },
    },
    {
      name: "GET desk magazine",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) => oneOf("year", "page").map((key) => `/desk/magazine?${key}=${inUrl(t.slice(0, 300))}&page=2`)),
      fields: {},
    },
  ];
}

/**
 * The desk's video and podcast forms (ADR 083). The upload forms take multipart posts; the
 * fuzz's parts carry no file name, so `file` arrives as text and must be refused as no file.
 */
/** The store's catalogue and offers at the desk (ADR 091): products, formats and prices, promo codes and vouchers. */
function deskStoreTargets(): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const version = oneOf("1", "2", "999999", "0", "abc");
  const day = oneOf("2026-03-04", "2026-02-30", "1899-12-31", "", "tomorrow");
  const count = oneOf("", "1", "50", "0", "-1", "1e9", "x");
  return [
    {
      name: "desk: a product, new or saved",
      actors: everyone,
      path: fc.oneof(fc.constant("/desk/products/new"), pathWith("/desk/products/", ["1", "2", "99999"])),
      fields: {
        version,
        title: oneOf("A fuzzed product", "", "x".repeat(301)),
        productType: oneOf("Book", "Case Study", "Pamphlet", ""),
        topic: oneOf("Strategy", "strategy", "No Such Topic", ""),
        authors: oneOf("", "A, B", ",,,", "x".repeat(121)),
        summary: oneOf("About it.", ""),
        description: oneOf("At length.", ""),
        published: day,
        pages: oneOf("0", "120", "-3", "10001", "many"),
        slug: oneOf("", "fuzz-product", "the-patient-ledger", "Not A Slug"),
      },
    },
    {
      name: "desk: a product's format, new, saved or priced",
      actors: everyone,
      path: fc.oneof(
        pathWith("/desk/products/", ["1", "99999"], "/formats/new"),
        pathWith("/desk/products/1/formats/", ["1001", "1002", "99999"]),
      ),
      fields: {
        intent: oneOf("save", "price", "withdraw", "nothing"),
        version,
        format: oneOf("Paperback", "", "x".repeat(61)),
        code: oneOf("PBK", "knd", "PDF", "TOOLONG", ""),
        lineType: oneOf("SHIP", "EBOOK", "DIGITAL", "BUNDLE", "BOAT"),
        language: oneOf("English", ""),
        status: oneOf("on-sale", "coming-soon", "retired", "gone"),
        availableDate: day,
        listPrice: oneOf("24.00", "$5", "1,000.50", "-1", "100000", "abc"),
        price: oneOf("26.00", "0", "99999.99", "1.234", ""),
        startsAt: oneOf("", "2099-01-01T09:00", "2020-01-01T09:00", "2026-02-30T25:00", "now"),
        change: oneOf("00000000-0000-4000-8000-000000000000", "not-a-change"),
        permissionsAvailable: oneOf("on", ""),
        volumePricing: oneOf("on", ""),
      },
    },
    {
      name: "desk: a promo code or voucher, new, saved or disabled",
      actors: everyone,
      path: fc.oneof(
        oneOf("/desk/offers/promo-codes/new", "/desk/offers/vouchers/new"),
        pathWith("/desk/offers/promo-codes/", ["WELCOME10", "NOPE"]),
        pathWith("/desk/offers/vouchers/", ["GIFT-LEDGER-0001", "NOPE"]),
      ),
      fields: {
        intent: oneOf("", "save", "disable", "enable"),
        version,
        code: oneOf("FUZZ-CODE", "x", "WELCOME10", "with space", "x".repeat(41)),
        description: oneOf("5% off", ""),
        percentOff: oneOf("", "5", "0", "101", "x"),
        amountOff: oneOf("", "5.00", "-1"),
        productType: oneOf("", "Book", "Pamphlet"),
        products: oneOf("", "1", "99999", "x"),
        availability: oneOf("1001", "99999", "x", ""),
        startsOn: day,
        endsOn: day,
        maxUses: count,
        maxUsesPerReader: count,
      },
    },
  ];
}

function deskMediaTargets(): ActionTarget[] {
  const everyone: Actor[] = ["staff", "reader", "guest"];
  const version = oneOf("1", "2", "999999", "0", "abc");
  return [
    {
      name: "desk: a video, new or saved",
      actors: everyone,
      path: fc.oneof(fc.constant("/desk/videos/new"), pathWith("/desk/videos/", ["6300001", "6300018", "99999"])),
      fields: {
        version,
        title: oneOf("A fuzzed video", "", "x".repeat(201)),
        description: oneOf("About it.", ""),
        topic: oneOf("Operations", "operations", "No Such Topic", ""),
        tags: oneOf("", "a, b", ",,,", "x".repeat(41)),
        durationSeconds: oneOf("", "12:30", "1:02:03", "99:99", "-5", "86401"),
        published: oneOf("2026-03-04", "2026-02-30", "1899-12-31"),
        subscriberOnly: oneOf("on", "", "true"),
        playlists: oneOf("the-managers-toolkit", "no-such-list", "Not A Slug"),
        slug: oneOf("", "fuzz-video", "ai-pilots-that-actually-ship", "Not A Slug"),
      },
    },
    {
      name: "desk: an episode, new or saved",
      actors: everyone,
      path: fc.oneof(
        pathWith("/desk/podcasts/", ["the-long-way-back", "no-such-show"], "/new"),
        pathWith("/desk/podcasts/the-long-way-back/", ["1", "20", "99999"]),
      ),
      fields: {
        version,
        title: oneOf("A fuzzed episode", ""),
        description: oneOf("About it.", ""),
        pubDate: oneOf("2026-03-04", "2026-02-30"),
        season: oneOf("1", "7", "0", "1000", "x"),
        episode: oneOf("1", "42", "0", "-1", "1e9"),
        episodeType: oneOf("full", "bonus", "trailer", "teaser"),
        durationSeconds: oneOf("", "34:10", "abc"),
      },
    },
    {
      name: "desk: a video's files and an episode's audio",
      actors: everyone,
      path: oneOf(
        "/desk/videos/6300001/files",
        "/desk/videos/99999/files",
        "/desk/podcasts/the-long-way-back/1/audio",
        "/desk/podcasts/x/1/audio",
      ),
      fields: {
        intent: oneOf("file", "captions", "audio", "other"),
        file: oneOf("", "WEBVTT\n\n", "\u001aE\u00df\u00a3", "ID3", "<html>"),
      },
    },
    {
      name: "GET desk videos and podcasts",
      method: "GET",
      actors: everyone,
      path: hostileText.chain((t) =>
        oneOf("/desk/videos?q=", "/desk/videos?page=", "/desk/podcasts/the-long-way-back?q=").map((p) => `${p}${inUrl(t.slice(0, 300))}`),
      ),
      fields: {},
    },
  ];
}

const curationFields = (w: World) => ({
  // Mostly the first version and real ids, so that some changes go through.
  version: fc.oneof({ weight: 4, arbitrary: fc.constant("1") }, { weight: 1, arbitrary: oneOf("2", "0", "-1", "x", "99999999999") }),
  item: fc.oneof({ weight: 3, arbitrary: oneOf(w.article.id, "1", "2") }, { weight: 1, arbitrary: oneOf("0", "999999999", "x") }),
  add: oneOf(w.article.path, `https://example.org${w.article.path}?list=x`, "no-such-article", "/2020/01/", ""),
  intent: oneOf("add", "save", "up-0", "down-0", "up-1", "remove-0", "remove-99999", "sideways-1", ""),
});

const readingListFields = {
  name: oneOf("Desk picks", "", "x".repeat(201)),
  slug: oneOf("desk-picks", "Not A Slug", "", "-x-", "leading-through-reorganization"),
  description: oneOf("", "Chosen at the desk."),
};

/** One generated request for a target. */
export interface FuzzCase {
  actor: Actor;
  path: string;
  fields: [string, FieldValue][];
  encoding: Encoding;
  origin: OriginKind;
  headers: Record<string, string>;
  /** Sent a second time straight after the first answer, as a replay. */
  replay: boolean;
}
