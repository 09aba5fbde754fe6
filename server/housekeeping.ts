import { sql } from "kysely";
import { rollUpRecentDays } from "./desk/reports/rollup";
import { purgeExpiredSessions } from "./accounts/sessions";
import { imageStorage } from "./adapters/image-storage";
import type { Database } from "./db/connection";
import { meterPeriod } from "./paywall/meter";
import { READ_DAYS_KEPT, readDay } from "./content/popularity";
import type { PaymentProvider } from "./payments/provider";
import { removeAbandonedUploads } from "./media";
import { resliceSearchIndex } from "./search/slices";
import { cancelAbandonedOrders } from "./store/order-sweep";

/** A guest cart nobody has touched for this long, and that no order was placed from, is dropped. */
export const GUEST_CART_IDLE_DAYS = 30;

export interface HousekeepingReport {
  abandonedOrders: number;
  sessions: number;
  meterReads: number;
  rateLimits: number;
  guestCarts: number;
  passwordResets: number;
  emailChanges: number;
  geoLookups: number;
  articleReadDays: number;
  /** Media files whose upload never ended (ADR 083). */
  abandonedUploads: number;
  /** Closed days the reports rolled up (ADR 090). */
  reportDays: number;
  /** Whether PostgreSQL's search index was re-sliced: its newest slice had outgrown its size. */
  searchResliced: boolean;
}

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/**
 * The periodic clean-up, as of `now`: cancels the orders left unpaid past their payment window
 * (closing their checkout pages), and deletes what can no longer be used: expired sessions,
 * meter reads of past months, rate-limit windows that have ended, guest carts idle for
 * GUEST_CART_IDLE_DAYS with no order, expired password-reset and e-mail-change tokens, geo
 * lookups past their time, article read counts older than READ_DAYS_KEPT days, and media uploads
 * that never ended (with what the bucket kept of them); and rolls up the reports' closed days of
 * the last year (each day claimed once, server/desk/reports/rollup.ts). Every step is a conditional update or delete, so instances running it
 * at the same moment do not clash. On
 * PostgreSQL it also re-slices the search index once new content has outgrown its newest slice.
 */
export async function runHousekeeping(db: Database, provider: PaymentProvider, now = new Date()): Promise<HousekeepingReport> {
  const at = now.toISOString();
  const idleSince = new Date(now.getTime() - GUEST_CART_IDLE_DAYS * 86_400_000).toISOString();
  return {
    abandonedOrders: (await cancelAbandonedOrders(db, provider, now)).length,
    sessions: await purgeExpiredSessions(db, now),
    meterReads: deleted(await db.deleteFrom("meter_read").where("period", "<", meterPeriod(now)).executeTakeFirst()),
    rateLimits: deleted(await db.deleteFrom("rate_limit").where("window_end", "<=", at).executeTakeFirst()),
    // Their lines and checkout drafts go with them (foreign keys on delete cascade).
    guestCarts: deleted(
      await db
        .deleteFrom("cart")
        .where("user_id", "is", null)
        .where("updated_at", "<", idleSince)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("store_order").select(sql.lit(1).as("one")).whereRef("store_order.cart_id", "=", "cart.id"))),
        )
        .executeTakeFirst(),
    ),
    passwordResets: deleted(await db.deleteFrom("password_reset").where("expires_at", "<=", at).executeTakeFirst()),
    emailChanges: deleted(await db.deleteFrom("email_change").where("expires_at", "<=", at).executeTakeFirst()),
    geoLookups: deleted(await db.deleteFrom("geo_country").where("expires_at", "<=", at).executeTakeFirst()),
    articleReadDays: deleted(await db.deleteFrom("article_read_day").where("day", "<", readDay(now, -READ_DAYS_KEPT)).executeTakeFirst()),
    abandonedUploads: await removeAbandonedUploads(db, imageStorage(), now),
    reportDays: await rollUpRecentDays(db, now),
    searchResliced: await resliceSearchIndex(db, { concurrently: true }),
  };
}

/** One log line saying what a run did. */
export function describeHousekeeping(report: HousekeepingReport): string {
  return (
    `Housekeeping: cancelled ${report.abandonedOrders} abandoned order(s); removed ${report.sessions} expired session(s), ` +
    `${report.meterReads} meter read(s) of past months, ${report.rateLimits} ended rate-limit window(s), ` +
    `${report.guestCarts} idle guest cart(s), ${report.passwordResets} expired password-reset token(s), ` +
    `${report.emailChanges} expired e-mail-change link(s), ${report.geoLookups} expired geo lookup(s), ` +
    `${report.articleReadDays} day(s) of article read counts older than ${READ_DAYS_KEPT} days, ` +
    `${report.abandonedUploads} media upload(s) that never ended; rolled up ${report.reportDays} day(s) of reports` +
    (report.searchResliced ? "; re-sliced the search index" : "")
  );
}
