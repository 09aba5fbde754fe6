import type { Database } from "~/server/db/connection";
import type { DB } from "~/server/db/schema";
import { PRINT_REFERENCE_PREFIX } from "~/server/accounts/print-subscribers";
import { invoiceNumber } from "~/server/billing/invoices";
import { AUDIT_ACTIONS, isAuditAction } from "~/server/desk/audit";
import { COMP_REFERENCE_PREFIX } from "~/server/desk/service/rules";
import { contentItems, type ContentRef } from "~/server/library/content";
import { userKey } from "~/server/readers/keys";
import { findPlan } from "~/server/subscriptions/plans";
import { tierOf } from "~/server/subscriptions/tiers";
import { articlePath } from "~/shared/urls";

// A reader's own data (ADR 089): everything the site holds about the signed-in reader, as one
// JSON document and, from the same object, a page. SECTIONS is the one list of every table that
// holds something about a reader: each section names the tables it reads, and NOT_EXPORTED names
// the rest with the reason. tests/db/privacy.test.ts fails when a table that holds a user id, an
// e-mail address or a reader key is in neither, so a new table cannot be left out unseen.
//
// Never exported: password hashes, session and link tokens (or their hashes), order access keys,
// second-factor secrets and recovery codes, the provider's ids for cards and customers, and
// anything about other people (staff are named by role, never by address).

/** A JSON value as the export holds it. */
export type ExportValue = string | number | boolean | null | ExportValue[] | { [key: string]: ExportValue };
export type ExportRecord = { [key: string]: ExportValue };

/** The reader the export is about. */
export interface ExportSubject {
  userId: string;
  email: string;
}

interface Section {
  key: string;
  title: string;
  /** Every table the section reads: together with NOT_EXPORTED, every table that holds a reader's data. */
  tables: readonly (keyof DB)[];
  read: (db: Database, who: ExportSubject) => Promise<ExportValue>;
}

const flag = (value: number) => Number(value) === 1;

/** Titles and addresses of the items references point at; an item since withdrawn keeps its reference. */
async function describe(db: Database, refs: ContentRef[]): Promise<(ref: ContentRef) => ExportRecord> {
  const found = await contentItems(db, refs);
  return (ref) => {
    const item = found.get(`${ref.type}:${ref.id}`);
    return { type: ref.type, title: item?.title ?? null, url: item?.url ?? null };
  };
}

/** Article titles and addresses by id, published or not. */
async function articles(db: Database, ids: number[]): Promise<Map<number, { title: string; url: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("article_record")
    .select(["id", "title", "year", "month", "slug"])
    .where("id", "in", [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, { title: r.title, url: articlePath(r) }]));
}

const SECTIONS: readonly Section[] = [
  {
    key: "profile",
    title: "Your profile",
    tables: ["app_user", "email_change"],
    async read(db, who) {
      const user = await db
        .selectFrom("app_user")
        .select([
          "email",
          "first_name",
          "last_name",
          "display_name",
          "opt_in",
          "industry",
          "job_title",
          "company_size",
          "status",
          "created_at",
          "updated_at",
          "last_visit_at",
          "email_verified_at",
        ])
        .where("id", "=", who.userId)
        .executeTakeFirstOrThrow();
      const changes = await db
        .selectFrom("email_change")
        .select(["new_email", "created_at", "expires_at", "used_at"])
        .where("user_id", "=", who.userId)
        .orderBy("created_at")
        .execute();
      return {
        accountId: who.userId,
        emailAddress: user.email,
        firstName: user.first_name,
        lastName: user.last_name,
        displayName: user.display_name,
        emailUpdatesOptIn: flag(user.opt_in),
        industry: user.industry,
        jobTitle: user.job_title,
        companySize: user.company_size,
        status: user.status,
        registeredAt: user.created_at,
        updatedAt: user.updated_at,
        lastVisitAt: user.last_visit_at,
        emailVerifiedAt: user.email_verified_at,
        emailAddressChanges: changes.map((c) => ({
          newAddress: c.new_email,
          requestedAt: c.created_at,
          linkExpiresAt: c.expires_at,
          confirmedAt: c.used_at,
        })),
      };
    },
  },
  {
    key: "signIn",
    title: "Sign-in and sessions",
    tables: ["user_session", "login_failure", "password_reset"],
    async read(db, who) {
      const [sessions, failure, resets] = await Promise.all([
        db
          .selectFrom("user_session")
          .select(["created_at", "expires_at", "user_agent"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at", "desc")
          .execute(),
        db
          .selectFrom("login_failure")
          .select(["failures", "lockouts", "first_lockout_at", "locked_until"])
          .where("email", "=", who.email)
          .executeTakeFirst(),
        db
          .selectFrom("password_reset")
          .select(["created_at", "expires_at", "used_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
      ]);
      return {
        sessions: sessions.map((s) => ({ startedAt: s.created_at, expiresAt: s.expires_at, browser: s.user_agent })),
        failedSignIns: failure
          ? {
              wrongPasswordsSinceLastSignIn: Number(failure.failures),
              lockouts: Number(failure.lockouts),
              firstLockoutAt: failure.first_lockout_at,
              lockedUntil: failure.locked_until,
            }
          : null,
        // The links themselves are secrets: when they were made and used only.
        passwordResetLinks: resets.map((r) => ({ requestedAt: r.created_at, expiresAt: r.expires_at, usedAt: r.used_at })),
      };
    },
  },
  {
    key: "follows",
    title: "Topics, newsletters and campaigns you follow",
    tables: ["follow", "following_seen"],
    async read(db, who) {
      const [rows, seen] = await Promise.all([
        db.selectFrom("follow").select(["kind", "target", "created_at"]).where("user_id", "=", who.userId).orderBy("created_at").execute(),
        db.selectFrom("following_seen").select("seen_at").where("user_id", "=", who.userId).executeTakeFirst(),
      ]);
      const topicIds = rows.filter((r) => r.kind === "topic").map((r) => Number(r.target));
      const [topics, newsletters, campaigns] = await Promise.all([
        topicIds.length > 0 ? db.selectFrom("topic").select(["id", "name"]).where("id", "in", topicIds).execute() : [],
        db.selectFrom("newsletter").select(["slug", "name"]).execute(),
        db.selectFrom("marketing_campaign").select(["id", "name"]).execute(),
      ]);
      const names = new Map<string, string>([
        ...topics.map((t): [string, string] => [`topic:${t.id}`, t.name]),
        ...newsletters.map((n): [string, string] => [`newsletter:${n.slug}`, n.name]),
        ...campaigns.map((c): [string, string] => [`campaign:${c.id}`, c.name]),
      ]);
      return {
        following: rows.map((r) => ({ kind: r.kind, name: names.get(`${r.kind}:${r.target}`) ?? r.target, since: r.created_at })),
        followingStreamLastSeenAt: seen?.seen_at ?? null,
      };
    },
  },
  {
    key: "library",
    title: "My Library: folders and saved items",
    tables: ["library_folder", "library_item", "library_item_folder"],
    async read(db, who) {
      const [folders, items, placements] = await Promise.all([
        db
          .selectFrom("library_folder")
          .select(["id", "name", "description", "created_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db
          .selectFrom("library_item")
          .select(["id", "content_type", "content_id", "saved_at"])
          .where("user_id", "=", who.userId)
          .orderBy("saved_at")
          .execute(),
        db
          .selectFrom("library_item_folder")
          .innerJoin("library_item", "library_item.id", "library_item_folder.item_id")
          .select(["library_item_folder.item_id", "library_item_folder.folder_id", "library_item_folder.added_at"])
          .where("library_item.user_id", "=", who.userId)
          .execute(),
      ]);
      const item = await describe(
        db,
        items.map((i) => ({ type: i.content_type, id: i.content_id })),
      );
      const folderName = new Map(folders.map((f) => [f.id, f.name]));
      return {
        folders: folders.map((f) => ({ name: f.name, description: f.description, createdAt: f.created_at })),
        savedItems: items.map((i) => ({
          ...item({ type: i.content_type, id: i.content_id }),
          savedAt: i.saved_at,
          folders: placements.filter((p) => p.item_id === i.id).map((p) => folderName.get(p.folder_id) ?? ""),
        })),
      };
    },
  },
  {
    key: "notes",
    title: "Your notes on articles",
    tables: ["annotation"],
    async read(db, who) {
      const rows = await db
        .selectFrom("annotation")
        .select(["article_id", "paragraph", "quote", "note", "created_at"])
        .where("user_id", "=", who.userId)
        .orderBy("created_at")
        .execute();
      const titles = await articles(
        db,
        rows.map((r) => r.article_id),
      );
      return rows.map((r) => ({
        article: titles.get(r.article_id)?.title ?? null,
        url: titles.get(r.article_id)?.url ?? null,
        paragraph: r.paragraph,
        quote: r.quote,
        note: r.note,
        writtenAt: r.created_at,
      }));
    },
  },
  {
    key: "history",
    title: "Reading, viewing and sharing history",
    tables: ["view_history", "share_history"],
    async read(db, who) {
      const [views, shares] = await Promise.all([
        db
          .selectFrom("view_history")
          .select(["content_type", "content_id", "viewed_at"])
          .where("user_id", "=", who.userId)
          .orderBy("viewed_at", "desc")
          .execute(),
        db
          .selectFrom("share_history")
          .select(["content_type", "content_id", "provider", "recipients", "shared_at"])
          .where("user_id", "=", who.userId)
          .orderBy("shared_at", "desc")
          .execute(),
      ]);
      const item = await describe(db, [
        ...views.map((v) => ({ type: v.content_type, id: v.content_id })),
        ...shares.map((s) => ({ type: s.content_type, id: s.content_id })),
      ]);
      return {
        readAndWatched: views.map((v) => ({ ...item({ type: v.content_type, id: v.content_id }), lastOpenedAt: v.viewed_at })),
        // Whom a page was shared with by e-mail is not kept: only how many.
        shared: shares.map((s) => ({
          ...item({ type: s.content_type, id: s.content_id }),
          via: s.provider,
          recipients: s.recipients,
          sharedAt: s.shared_at,
        })),
      };
    },
  },
  {
    key: "orders",
    title: "Orders",
    tables: ["store_order", "store_order_line", "store_shipment", "store_refund", "store_refund_line", "download_extension", "voucher"],
    async read(db, who) {
      const orders = await db
        .selectFrom("store_order")
        .select([
          "id",
          "number",
          "kind",
          "status",
          "email",
          "ship_first_name",
          "ship_last_name",
          "ship_address1",
          "ship_address2",
          "ship_city",
          "ship_state",
          "ship_postal_code",
          "ship_country_code",
          "shipping_method",
          "promo_code",
          "subtotal_cents",
          "discount_cents",
          "tax_cents",
          "shipping_cents",
          "total_cents",
          "refunded_cents",
          "created_at",
          "paid_at",
          "cancelled_at",
          "shipped_at",
          "delivered_at",
        ])
        .where("user_id", "=", who.userId)
        .orderBy("created_at")
        .execute();
      const ids = orders.map((o) => o.id);
      const none = ids.length === 0;
      const [lines, shipments, refunds, refundLines, extensions, vouchers] = await Promise.all([
        none
          ? []
          : db
              .selectFrom("store_order_line")
              .select(["order_id", "position", "title", "format", "quantity", "unit_price_cents", "line_total_cents", "refunded_quantity"])
              .where("order_id", "in", ids)
              .orderBy("position")
              .execute(),
        none
          ? []
          : db
              .selectFrom("store_shipment")
              .select(["id", "order_id", "carrier", "tracking_number", "shipped_at", "delivered_at"])
              .where("order_id", "in", ids)
              .orderBy("shipped_at")
              .execute(),
        none
          ? []
          : db
              .selectFrom("store_refund")
              .select(["id", "order_id", "amount_cents", "status", "created_at", "succeeded_at"])
              .where("order_id", "in", ids)
              .orderBy("created_at")
              .execute(),
        none
          ? []
          : db
              .selectFrom("store_refund_line")
              .innerJoin("store_refund", "store_refund.id", "store_refund_line.refund_id")
              .select(["store_refund_line.refund_id", "store_refund_line.position", "store_refund_line.quantity"])
              .where("store_refund.order_id", "in", ids)
              .execute(),
        none
          ? []
          : db.selectFrom("download_extension").select(["order_id", "position", "expires_at"]).where("order_id", "in", ids).execute(),
        db.selectFrom("voucher").select(["code", "redeemed_at", "order_id"]).where("redeemed_by", "=", who.userId).execute(),
      ]);
      const numbers = new Map(orders.map((o) => [o.id, o.number]));
      return {
        orders: orders.map((o) => ({
          number: o.number,
          kind: o.kind,
          status: o.status,
          emailAddress: o.email,
          placedAt: o.created_at,
          paidAt: o.paid_at,
          cancelledAt: o.cancelled_at,
          shippedAt: o.shipped_at,
          deliveredAt: o.delivered_at,
          shipTo: o.ship_country_code
            ? {
                name: `${o.ship_first_name ?? ""} ${o.ship_last_name ?? ""}`.trim(),
                address1: o.ship_address1,
                address2: o.ship_address2,
                city: o.ship_city,
                state: o.ship_state,
                postalCode: o.ship_postal_code,
                country: o.ship_country_code,
              }
            : null,
          shippingMethod: o.shipping_method,
          promoCode: o.promo_code,
          subtotalCents: o.subtotal_cents,
          discountCents: o.discount_cents,
          taxCents: o.tax_cents,
          shippingCents: o.shipping_cents,
          totalCents: o.total_cents,
          refundedCents: Number(o.refunded_cents),
          lines: lines
            .filter((l) => l.order_id === o.id)
            .map((l) => ({
              title: l.title,
              format: l.format,
              quantity: l.quantity,
              unitPriceCents: l.unit_price_cents,
              totalCents: l.line_total_cents,
              refundedQuantity: Number(l.refunded_quantity),
              downloadsExtendedUntil: extensions.find((e) => e.order_id === o.id && e.position === l.position)?.expires_at ?? null,
            })),
          shipments: shipments
            .filter((s) => s.order_id === o.id)
            .map((s) => ({ carrier: s.carrier, trackingNumber: s.tracking_number, shippedAt: s.shipped_at, deliveredAt: s.delivered_at })),
          refunds: refunds
            .filter((r) => r.order_id === o.id)
            .map((r) => ({
              amountCents: r.amount_cents,
              status: r.status,
              askedAt: r.created_at,
              refundedAt: r.succeeded_at,
              lines: refundLines.filter((l) => l.refund_id === r.id).map((l) => ({ line: l.position, quantity: l.quantity })),
            })),
        })),
        vouchersRedeemed: vouchers.map((v) => ({
          code: v.code,
          redeemedAt: v.redeemed_at,
          order: v.order_id ? (numbers.get(v.order_id) ?? null) : null,
        })),
      };
    },
  },
  {
    key: "addresses",
    title: "Saved addresses and your cart",
    tables: ["saved_address", "cart", "cart_line", "checkout_draft"],
    async read(db, who) {
      const [addresses, cart] = await Promise.all([
        db
          .selectFrom("saved_address")
          .select(["first_name", "last_name", "address1", "address2", "city", "state", "postal_code", "country_code", "created_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db.selectFrom("cart").select(["id", "created_at", "updated_at"]).where("user_id", "=", who.userId).executeTakeFirst(),
      ]);
      const [lines, draft] = cart
        ? await Promise.all([
            db
              .selectFrom("cart_line")
              .innerJoin("product_availability", "product_availability.id", "cart_line.availability_id")
              .innerJoin("product", "product.id", "product_availability.product_id")
              .select(["product.title", "product_availability.format", "cart_line.kind", "cart_line.quantity", "cart_line.added_at"])
              .where("cart_line.cart_id", "=", cart.id)
              .orderBy("cart_line.added_at")
              .execute(),
            db
              .selectFrom("checkout_draft")
              .select([
                "email",
                "first_name",
                "last_name",
                "address1",
                "address2",
                "city",
                "state",
                "postal_code",
                "country_code",
                "shipping_method",
                "promo_code",
                "updated_at",
              ])
              .where("cart_id", "=", cart.id)
              .executeTakeFirst(),
          ])
        : [[], undefined];
      return {
        savedAddresses: addresses.map((a) => ({
          name: `${a.first_name} ${a.last_name}`,
          address1: a.address1,
          address2: a.address2,
          city: a.city,
          state: a.state,
          postalCode: a.postal_code,
          country: a.country_code,
          savedAt: a.created_at,
        })),
        cart: cart
          ? {
              startedAt: cart.created_at,
              updatedAt: cart.updated_at,
              items: lines.map((l) => ({ title: l.title, format: l.format, kind: l.kind, quantity: l.quantity, addedAt: l.added_at })),
              checkoutInProgress: draft
                ? {
                    emailAddress: draft.email,
                    name: `${draft.first_name ?? ""} ${draft.last_name ?? ""}`.trim() || null,
                    address1: draft.address1,
                    address2: draft.address2,
                    city: draft.city,
                    state: draft.state,
                    postalCode: draft.postal_code,
                    country: draft.country_code,
                    shippingMethod: draft.shipping_method,
                    promoCode: draft.promo_code,
                    updatedAt: draft.updated_at,
                  }
                : null,
            }
          : null,
      };
    },
  },
  {
    key: "subscriptions",
    title: "Subscriptions, checkouts and invoices",
    tables: ["subscription", "subscription_checkout", "invoice"],
    async read(db, who) {
      const [subscriptions, checkouts, invoices] = await Promise.all([
        db
          .selectFrom("subscription")
          .select([
            "role_code",
            "source",
            "reference",
            "status",
            "plan_id",
            "billing_status",
            "access_start",
            "access_end",
            "grace_end",
            "card_brand",
            "card_last4",
            "cancelled_at",
            "cancel_reason",
            "billing_country",
            "billing_region",
            "created_at",
          ])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db
          .selectFrom("subscription_checkout")
          .select([
            "plan_id",
            "ab_tag",
            "amount_cents",
            "tax_cents",
            "status",
            "company",
            "tax_id",
            "billing_country",
            "billing_region",
            "created_at",
            "activated_at",
          ])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db
          .selectFrom("invoice")
          .select([
            "number",
            "kind",
            "plan_id",
            "amount_cents",
            "tax_cents",
            "period_start",
            "period_end",
            "company",
            "tax_id",
            "card_brand",
            "card_last4",
            "billing_country",
            "billing_region",
            "created_at",
            "receipt_sent_at",
          ])
          .where("user_id", "=", who.userId)
          .orderBy("number")
          .execute(),
      ]);
      const card = (brand: string | null, last4: string | null) => (last4 ? `${brand ?? "card"} ending in ${last4}` : null);
      const planName = (id: string | null) => (id ? (findPlan(id)?.name ?? id) : null);
      return {
        subscriptions: subscriptions.map((s) => ({
          tier: tierOf(s.role_code)?.name ?? s.role_code,
          kind: s.source === "print" ? "print" : s.reference.startsWith(COMP_REFERENCE_PREFIX) ? "complimentary" : "web",
          plan: planName(s.plan_id),
          printAccountNumber: s.source === "print" ? s.reference.slice(PRINT_REFERENCE_PREFIX.length) : null,
          status: s.status,
          billingStatus: s.billing_status,
          accessStart: s.access_start,
          accessEnd: s.access_end,
          graceEnd: s.grace_end,
          card: card(s.card_brand, s.card_last4),
          cancelledAt: s.cancelled_at,
          cancelReason: s.cancel_reason,
          billingCountry: s.billing_country,
          billingRegion: s.billing_region,
          createdAt: s.created_at,
        })),
        checkouts: checkouts.map((c) => ({
          plan: planName(c.plan_id),
          offerTag: c.ab_tag,
          amountCents: c.amount_cents,
          taxCents: Number(c.tax_cents),
          status: c.status,
          company: c.company,
          taxId: c.tax_id,
          billingCountry: c.billing_country,
          billingRegion: c.billing_region,
          startedAt: c.created_at,
          paidAt: c.activated_at,
        })),
        invoices: invoices.map((i) => ({
          number: invoiceNumber(Number(i.number)),
          kind: i.kind,
          plan: planName(i.plan_id),
          amountCents: i.amount_cents,
          taxCents: i.tax_cents,
          periodStart: i.period_start,
          periodEnd: i.period_end,
          company: i.company,
          taxId: i.tax_id,
          card: card(i.card_brand, i.card_last4),
          billingCountry: i.billing_country,
          billingRegion: i.billing_region,
          issuedAt: i.created_at,
          receiptMailedAt: i.receipt_sent_at,
        })),
      };
    },
  },
  {
    key: "printSubscriptions",
    title: "Print subscriptions under your e-mail address",
    tables: ["print_subscriber"],
    async read(db, who) {
      const rows = await db
        .selectFrom("print_subscriber")
        .select(["account_number", "first_name", "last_name", "source", "subscription_code", "active", "access_start", "access_end"])
        .where("email", "=", who.email)
        .orderBy("account_number")
        .execute();
      return rows.map((p) => ({
        accountNumber: p.account_number,
        name: `${p.first_name} ${p.last_name}`,
        source: p.source,
        subscriptionCode: p.subscription_code,
        active: flag(p.active),
        accessStart: p.access_start,
        accessEnd: p.access_end,
      }));
    },
  },
  {
    key: "meter",
    title: "Free articles counted by the meter",
    tables: ["meter_read"],
    async read(db, who) {
      const rows = await db
        .selectFrom("meter_read")
        .select(["period", "meter", "article_id", "read_at"])
        .where("meter_key", "=", userKey(who.userId))
        .orderBy("read_at")
        .execute();
      const titles = await articles(
        db,
        rows.map((r) => r.article_id),
      );
      return rows.map((r) => ({
        month: r.period,
        meter: r.meter,
        article: titles.get(r.article_id)?.title ?? null,
        readAt: r.read_at,
      }));
    },
  },
  {
    key: "walls",
    title: "Days the paywall or the registration wall stopped you",
    tables: ["wall_view"],
    async read(db, who) {
      const rows = await db
        .selectFrom("wall_view")
        .select(["day", "wall", "ab_tag"])
        .where("viewer", "=", userKey(who.userId))
        .orderBy("day")
        .orderBy("wall")
        .execute();
      return rows.map((r) => ({ day: r.day, wall: r.wall, tag: r.ab_tag }));
    },
  },
  {
    key: "gifts",
    title: "Gift links",
    tables: ["gift_link", "gift_allowance"],
    async read(db, who) {
      const [links, allowances] = await Promise.all([
        db
          .selectFrom("gift_link")
          .select(["article_id", "created_at", "revoked_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db.selectFrom("gift_allowance").select(["period", "used"]).where("user_id", "=", who.userId).orderBy("period").execute(),
      ]);
      const titles = await articles(
        db,
        links.map((l) => l.article_id),
      );
      return {
        // The links themselves are secrets (whoever holds one reads the article): not listed.
        links: links.map((l) => ({ article: titles.get(l.article_id)?.title ?? null, createdAt: l.created_at, revokedAt: l.revoked_at })),
        giftsUsedByMonth: allowances.map((a) => ({ month: a.period, used: Number(a.used) })),
      };
    },
  },
  {
    key: "mail",
    title: "Mail we sent you",
    tables: ["mail_log", "newsletter_delivery"],
    async read(db, who) {
      const [sent, issues] = await Promise.all([
        db
          .selectFrom("mail_log")
          .select(["subject", "sent_at"])
          .where("recipient", "=", who.email)
          .orderBy("sent_at", "desc")
          .orderBy("id")
          .execute(),
        db
          .selectFrom("newsletter_delivery")
          .innerJoin("newsletter_issue", "newsletter_issue.id", "newsletter_delivery.issue_id")
          .innerJoin("newsletter", "newsletter.id", "newsletter_issue.newsletter_id")
          .select(["newsletter.name", "newsletter_issue.subject", "newsletter_delivery.state", "newsletter_delivery.done_at"])
          .where("newsletter_delivery.user_id", "=", who.userId)
          .orderBy("newsletter_delivery.done_at")
          .execute(),
      ]);
      return {
        // The bodies are not kept (their links are secrets): the subject and when.
        messages: sent.map((m) => ({ subject: m.subject, sentAt: m.sent_at })),
        newsletterIssues: issues.map((i) => ({ newsletter: i.name, subject: i.subject, delivery: i.state, at: i.done_at })),
      };
    },
  },
  {
    key: "messages",
    title: "Messages you dismissed",
    tables: ["dismissal"],
    async read(db, who) {
      const rows = await db
        .selectFrom("dismissal")
        .select(["item", "dismissed_at"])
        .where("owner_key", "=", userKey(who.userId))
        .orderBy("dismissed_at")
        .execute();
      return rows.map((r) => ({ message: r.item, dismissedAt: r.dismissed_at }));
    },
  },
  {
    key: "customerService",
    title: "What Customer Service did on your account",
    tables: ["desk_audit"],
    async read(db, who) {
      // Rows about the reader name them by address (ADR 087). Who at the desk acted is theirs, not
      // the reader's, and stays out; rows a staff member's own work wrote are their employer's records.
      const rows = await db
        .selectFrom("desk_audit")
        .select(["at", "action", "after"])
        .where("subject", "=", `reader:${who.email}`)
        .orderBy("at")
        .orderBy("id")
        .execute();
      return rows.map((r) => {
        const after = r.after === null ? null : (JSON.parse(r.after) as Record<string, unknown> | null);
        const reason = after && typeof after.reason === "string" ? after.reason : null;
        return { at: r.at, action: isAuditAction(r.action) ? AUDIT_ACTIONS[r.action] : r.action, reason };
      });
    },
  },
  {
    key: "staff",
    title: "Desk roles (staff only)",
    tables: ["staff_role", "staff_second_factor", "staff_recovery_code", "staff_enrolment", "desk_session"],
    async read(db, who) {
      const [roles, factor, codes, enrolments, sessions] = await Promise.all([
        db.selectFrom("staff_role").select(["role", "granted_at"]).where("user_id", "=", who.userId).orderBy("role").execute(),
        db.selectFrom("staff_second_factor").select("enrolled_at").where("user_id", "=", who.userId).executeTakeFirst(),
        db
          .selectFrom("staff_recovery_code")
          .select(["created_at", "used_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db
          .selectFrom("staff_enrolment")
          .select(["created_at", "expires_at", "used_at"])
          .where("user_id", "=", who.userId)
          .orderBy("created_at")
          .execute(),
        db
          .selectFrom("desk_session")
          .select(["started_at", "expires_at"])
          .where("user_id", "=", who.userId)
          .orderBy("started_at")
          .execute(),
      ]);
      // The second factor's secret, the recovery codes and the enrolment links are secrets: their times only.
      return {
        roles: roles.map((r) => ({ role: r.role, grantedAt: r.granted_at })),
        secondFactorEnrolledAt: factor?.enrolled_at ?? null,
        recoveryCodes: codes.map((c) => ({ madeAt: c.created_at, usedAt: c.used_at })),
        enrolmentLinks: enrolments.map((e) => ({ madeAt: e.created_at, expiresAt: e.expires_at, usedAt: e.used_at })),
        deskSessions: sessions.map((s) => ({ startedAt: s.started_at, expiresAt: s.expires_at })),
      };
    },
  },
];

/**
 * Tables that hold a user id, an e-mail address or a reader key but are not exported, and why.
 * A table named here is still handled when an account is deleted (server/privacy/erase.ts).
 */
export const NOT_EXPORTED: Readonly<Partial<Record<keyof DB, string>>> = {
  service_request:
    "The keys that keep a customer-service form from acting twice: they identify a staff member's request. The actions themselves are listed under what Customer Service did.",
  sandbox_payment:
    "The built-in test payment provider's own records, which stand in for a real provider's: the publisher does not hold them (a real provider answers for its own).",
  sandbox_payment_method:
    "The test payment provider's saved cards: held by the provider, not the publisher (the card's brand and last four digits are exported with your subscription).",
  promo_use: "Which order used a promo code, kept to hold the code to its limits: the code is exported with the order it was used on.",
  voucher_use: "Which order redeemed a voucher, kept to hold it to its limits: the voucher is exported with the order that redeemed it.",
  article_record: "Who last edited an article at the desk: a staff member's work for the publisher, not data about a reader.",
  article_revision: "Who saved each version of an article at the desk: a staff member's work for the publisher, not data about a reader.",
};

/** Every table the export reads. */
export const EXPORTED_TABLES: ReadonlySet<string> = new Set(SECTIONS.flatMap((s) => s.tables));

/** The sections as the page lists them: each key of the export with its heading. */
export const EXPORT_SECTIONS: readonly { key: string; title: string }[] = SECTIONS.map(({ key, title }) => ({ key, title }));

export interface PersonalData {
  site: string;
  exportedAt: string;
  /** Each section's data by its key, in the order of EXPORT_SECTIONS. */
  sections: Record<string, ExportValue>;
}

/** Everything the site holds about a reader, section by section. */
export async function exportPersonalData(db: Database, who: ExportSubject, now = new Date()): Promise<PersonalData> {
  const sections: Record<string, ExportValue> = {};
  for (const section of SECTIONS) sections[section.key] = await section.read(db, who);
  return { site: "Meridian Review", exportedAt: now.toISOString(), sections };
}

/** The export as the JSON file gives it: the sections at the top level, beside when and from where. */
export function personalDataJson(data: PersonalData): string {
  return `${JSON.stringify({ site: data.site, exportedAt: data.exportedAt, ...data.sections }, null, 2)}\n`;
}
