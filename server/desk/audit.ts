import crypto from "node:crypto";
import type { Database } from "~/server/db/connection";

// The desk's audit log (ADR 073): every desk action, written in the same transaction as the
// change it records. This module only appends and reads; the databases refuse anything else
// (migration 033).

/** Who acted: a staff member (their id and address then), or the staff command line. */
export interface AuditActor {
  id: string | null;
  label: string;
}

export const COMMAND_LINE: AuditActor = { id: null, label: "command line" };
/** The scheduled jobs, publishing what an editor scheduled. */
export const SCHEDULER: AuditActor = { id: null, label: "scheduler" };
/** The payments provider's callbacks: a payment for a cancelled order is refunded without staff (ADR 086). */
export const PAYMENTS: AuditActor = { id: null, label: "payments" };
/** A reader acting on their own account from My account (ADR 089): named by no more than that. */
export const READER: AuditActor = { id: null, label: "the reader" };

export const AUDIT_ACTIONS = {
  "desk.enter": "Entered the desk",
  "desk.leave": "Left the desk",
  "second-factor.enrol": "Set up a second factor",
  "recovery-codes.renew": "Made new recovery codes",
  "staff.add": "Added staff",
  "staff.enrolment-link": "Made an enrolment link",
  "staff.change-roles": "Changed roles",
  "staff.remove": "Removed staff",
  "api-key.create": "Made an API key",
  "api-key.revoke": "Revoked an API key",
  "api.call": "Called the Admin API",
  "image.upload": "Uploaded an image",
  "article.create": "Created an article",
  "article.save": "Saved an article",
  "article.autosave": "Autosaved an article",
  "article.restore": "Restored a revision of an article",
  "article.publish": "Published an article",
  "article.schedule": "Scheduled an article",
  "article.unschedule": "Took an article off the schedule",
  "article.unpublish": "Unpublished an article",
  "author.create": "Added an author",
  "author.update": "Changed an author",
  "topic.create": "Added a topic",
  "topic.update": "Changed a topic",
  "home.curate": "Chose the home page's stories",
  "reading-list.create": "Created a reading list",
  "reading-list.save": "Saved a reading list",
  "article.image": "Changed an article's image",
  "author.photo": "Changed an author's photo",
  "magazine-issue.create": "Added a magazine issue",
  "magazine-issue.save": "Saved a magazine issue",
  "magazine-issue.cover": "Changed a magazine issue's cover",
  "newsletter-issue.create": "Started a newsletter issue",
  "newsletter-issue.save": "Saved a newsletter issue",
  "newsletter-issue.test": "Sent a test of a newsletter issue",
  "newsletter-issue.send": "Sent a newsletter issue",
  "newsletter-issue.schedule": "Scheduled a newsletter issue",
  "newsletter-issue.unschedule": "Took a newsletter issue off the schedule",
  "video.create": "Added a video",
  "video.update": "Changed a video",
  "video.file": "Uploaded a video's file",
  "video.captions": "Uploaded a video's captions",
  "podcast-episode.create": "Added a podcast episode",
  "podcast-episode.update": "Changed a podcast episode",
  "podcast-episode.audio": "Uploaded a podcast episode's audio",
  "reader.unlock": "Unlocked a reader's account",
  "reader.restrict": "Restricted a reader's account",
  "reader.unrestrict": "Lifted a reader's restriction",
  "reader.resend-mail": "Sent a reader a mail again",
  "reader.link-print": "Linked a print subscription",
  "reader.unlink-print": "Unlinked a print subscription",
  "subscription.extend": "Extended a subscription",
  "subscription.comp": "Granted a complimentary subscription",
  "download.extend": "Extended a case study's downloads",
  "order.fulfil": "Dispatched order lines",
  "order.deliver": "Marked a shipment delivered",
  "order.cancel": "Cancelled a paid order",
  "order.refund": "Refunded an order",
  "product.create": "Added a product",
  "product.save": "Changed a product",
  "product.cover": "Changed a product's cover",
  "availability.create": "Added a format of a product",
  "availability.save": "Changed a format of a product",
  "availability.file": "Uploaded a format's download file",
  "price.schedule": "Scheduled a price",
  "price.withdraw": "Withdrew a scheduled price",
  "promo-code.create": "Added a promo code",
  "promo-code.save": "Changed a promo code",
  "promo-code.disable": "Disabled a promo code",
  "promo-code.enable": "Enabled a promo code again",
  "voucher.create": "Added a voucher",
  "voucher.save": "Changed a voucher",
  "voucher.disable": "Disabled a voucher",
  "voucher.enable": "Enabled a voucher again",
  "account.delete": "A reader deleted their account",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const isAuditAction = (value: unknown): value is AuditAction => typeof value === "string" && Object.hasOwn(AUDIT_ACTIONS, value);

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** What the action was about, by value ("staff:ada@example.org"): it must outlive the thing. */
  subject: string;
  /** What changed, before and after (null where nothing was there): any JSON. */
  before?: unknown;
  after?: unknown;
}

let lastMillisecond = 0;
let sequence = 0;

/**
 * An id that sorts in the order this process wrote its rows: the log lists rows of the same
 * moment (`at`) by id, so a second factor set up and the desk entered in one request read in
 * that order. Rows of one moment from different processes fall in any order.
 */
function auditId(): string {
  const millisecond = Date.now();
  sequence = millisecond === lastMillisecond ? sequence + 1 : 0;
  lastMillisecond = millisecond;
  return `${millisecond.toString(16).padStart(12, "0")}-${sequence.toString(16).padStart(6, "0")}-${crypto.randomUUID()}`;
}

export async function recordAudit(db: Database, entry: AuditEntry, now: Date): Promise<void> {
  await db
    .insertInto("desk_audit")
    .values({
      id: auditId(),
      at: now.toISOString(),
      actor_id: entry.actor.id,
      actor: entry.actor.label,
      action: entry.action,
      subject: entry.subject,
      before: entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      after: entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
    })
    .execute();
}

export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
  /** Inclusive bounds, as ISO times. */
  from?: string;
  until?: string;
}

export interface AuditRow {
  id: string;
  at: string;
  actor: string;
  action: AuditAction;
  subject: string;
  before: unknown;
  after: unknown;
}

function filtered(db: Database, filter: AuditFilter) {
  let query = db.selectFrom("desk_audit");
  if (filter.actor) query = query.where("actor", "=", filter.actor);
  if (filter.action) query = query.where("action", "=", filter.action);
  if (filter.from) query = query.where("at", ">=", filter.from);
  if (filter.until) query = query.where("at", "<=", filter.until);
  return query;
}

/** One page of the log, newest first, and how many rows the filter finds in all. */
export async function auditPage(
  db: Database,
  filter: AuditFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter)
      .select(["id", "at", "actor", "action", "subject", "before", "after"])
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      action: row.action as AuditAction,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    })),
    total: Number(count.n),
  };
}

/** Everyone who appears in the log as an actor, for the filter's choices. */
export async function auditActors(db: Database): Promise<string[]> {
  const rows = await db.selectFrom("desk_audit").select("actor").distinct().orderBy("actor").execute();
  return rows.map((row) => row.actor);
}
