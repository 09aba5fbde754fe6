import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import type { NewsletterIssueStatus } from "~/server/db/schema";
import { Outcome, inTransaction } from "~/server/desk/articles/write";
import { recordAudit, type AuditAction, type AuditActor } from "~/server/desk/audit";
import { articlesInOrder, choiceProblem, type CuratedArticle } from "~/server/desk/curation/articles";
import { subscribersAmong } from "~/server/subscriptions/entitlements";
import { ISSUE_MESSAGES, type IssueFields } from "~/shared/newsletter-issue-fields";
import { ISSUE_MAX_ARTICLES } from "~/shared/newsletter-issue-vocabulary";
import { listNewsletters, newsletterBySlug, type Newsletter } from "./catalog";
import { ISSUE_ARTICLES, issueArticle, templateIssue, type IssueContent, type IssueRecipient } from "./issue";

// Newsletter issues (ADR 084): a draft composed at the desk (or by the command line's template),
// saved without lost updates, then queued to send now or at a time; the scheduled jobs send it
// (delivery.ts). Every change names the version it read and is audited in its transaction. A
// queued issue can be taken off the schedule until the jobs start it; once started it is never
// changed or sent again.

export interface IssueCounts {
  recipients: number;
  sent: number;
  failed: number;
  skipped: number;
  /** Not yet done: waiting, or held by a sender. */
  pending: number;
}

export interface DeskIssue {
  id: number;
  newsletter: Newsletter;
  status: NewsletterIssueStatus;
  subject: string;
  preheader: string;
  intro: string;
  articles: CuratedArticle[];
  version: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  /** When a queued issue goes (now, or a scheduled time), and who queued it when. */
  sendAt: string | null;
  queuedAt: string | null;
  queuedBy: string | null;
  startedAt: string | null;
  sentAt: string | null;
  /** Its deliveries, once the jobs have started it; null before. */
  counts: IssueCounts | null;
}

export type IssueSummary = Omit<DeskIssue, "preheader" | "intro" | "articles" | "newsletter"> & {
  newsletter: { slug: string; name: string };
};

/** A change to a draft: its fields and its articles (ids, in order). */
export interface IssueChange extends IssueFields {
  articleIds: number[];
}

export type IssueResult =
  | { ok: true; issue: DeskIssue }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string[]> }
  | { ok: false; reason: "state"; message: string; issue: DeskIssue }
  | { ok: false; reason: "conflict"; current: DeskIssue; by: string; at: string };

export const ISSUE_SENT = "This issue has been sent: it cannot be changed or sent again.";
export const ISSUE_WAITING = "This issue is waiting to be sent: take it off the schedule to change it.";
export const ISSUE_QUEUED_ALREADY = "This issue is already waiting to be sent.";
export const ISSUE_EMPTY = "An issue needs an introduction or an article before it is sent.";
export const ISSUE_NOT_SCHEDULED = "This issue is not waiting to be sent: there is no schedule to take it off.";

const ISSUE_COLUMNS = [
  "i.id",
  "i.status",
  "i.subject",
  "i.preheader",
  "i.intro",
  "i.version",
  "i.created_at",
  "i.created_by_name",
  "i.updated_at",
  "i.updated_by_name",
  "i.send_at",
  "i.queued_at",
  "i.queued_by_name",
  "i.started_at",
  "i.sent_at",
  "i.recipient_count",
  "i.sent_count",
  "i.failed_count",
  "i.skipped_count",
  "n.slug",
  "n.name",
] as const;

const issues = (db: Database) => db.selectFrom("newsletter_issue as i").innerJoin("newsletter as n", "n.id", "i.newsletter_id");

type IssueRow = Awaited<ReturnType<ReturnType<typeof issueRows>["execute"]>>[number];
const issueRows = (db: Database) => issues(db).select(ISSUE_COLUMNS);

/** Its deliveries counted by state (an issue being sent), or the counts kept when it was done. */
async function countsOf(db: Database, row: IssueRow): Promise<IssueCounts | null> {
  if (row.status === "draft" || row.status === "queued") return null;
  if (row.status === "sent")
    return {
      recipients: row.recipient_count ?? 0,
      sent: row.sent_count ?? 0,
      failed: row.failed_count ?? 0,
      skipped: row.skipped_count ?? 0,
      pending: 0,
    };
  return deliveryCounts(db, row.id);
}

/** An issue's deliveries, counted by state. */
export async function deliveryCounts(db: Database, issueId: number): Promise<IssueCounts> {
  const rows = await db
    .selectFrom("newsletter_delivery")
    .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
    .where("issue_id", "=", issueId)
    .groupBy("state")
    .execute();
  const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  const counts = { sent: of("sent"), failed: of("failed"), skipped: of("skipped"), pending: of("pending") + of("claimed") };
  return { recipients: counts.sent + counts.failed + counts.skipped + counts.pending, ...counts };
}

async function summaryOf(db: Database, row: IssueRow): Promise<IssueSummary> {
  return {
    id: row.id,
    newsletter: { slug: row.slug, name: row.name },
    status: row.status,
    subject: row.subject,
    version: row.version,
    createdAt: row.created_at,
    createdBy: row.created_by_name,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by_name,
    sendAt: row.send_at,
    queuedAt: row.queued_at,
    queuedBy: row.queued_by_name,
    startedAt: row.started_at,
    sentAt: row.sent_at,
    counts: await countsOf(db, row),
  };
}

/** One issue with its articles in order (in any state), or undefined. */
export async function getIssue(db: Database, id: number): Promise<DeskIssue | undefined> {
  const row = await issueRows(db).where("i.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const [summary, newsletter, picks] = await Promise.all([
    summaryOf(db, row),
    newsletterBySlug(db, row.slug),
    db.selectFrom("newsletter_issue_article").select("article_id").where("issue_id", "=", id).orderBy("position").execute(),
  ]);
  return {
    ...summary,
    newsletter: newsletter!,
    preheader: row.preheader,
    intro: row.intro,
    articles: await articlesInOrder(
      db,
      picks.map((p) => p.article_id),
    ),
  };
}

/** Issues, newest first, a page at a time, with how many there are. */
export async function listIssues(db: Database, page: number, pageSize: number): Promise<{ items: IssueSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    issueRows(db)
      .orderBy("i.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom("newsletter_issue")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: await Promise.all(rows.map((row) => summaryOf(db, row))), total: Number(count.n) };
}

export interface NewsletterAtDesk extends Newsletter {
  followers: number;
  /** Its issues sent so far, and the last one's end. */
  sentIssues: number;
  lastSentAt: string | null;
}

/** Every newsletter with how many readers follow it and what has been sent of it. */
export async function newslettersAtDesk(db: Database): Promise<NewsletterAtDesk[]> {
  const [newsletters, followers, sent] = await Promise.all([
    listNewsletters(db),
    db
      .selectFrom("follow")
      .select(["target", (eb) => eb.fn.countAll<number>().as("n")])
      .where("kind", "=", "newsletter")
      .groupBy("target")
      .execute(),
    issues(db)
      .select(["n.slug", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.max("i.sent_at").as("last")])
      .where("i.status", "=", "sent")
      .groupBy("n.slug")
      .execute(),
  ]);
  return newsletters.map((n) => {
    const issued = sent.find((s) => s.slug === n.slug);
    return {
      ...n,
      followers: Number(followers.find((f) => f.target === n.slug)?.n ?? 0),
      sentIssues: Number(issued?.n ?? 0),
      lastSentAt: issued?.last ?? null,
    };
  });
}

/** The readers following a newsletter, oldest follow first. */
function followersOf(db: Database, slug: string) {
  return db
    .selectFrom("follow")
    .innerJoin("app_user", "app_user.id", "follow.user_id")
    .where("follow.kind", "=", "newsletter")
    .where("follow.target", "=", slug);
}

/**
 * Who an issue of this newsletter would go to now: its followers, and of them, for a
 * subscriber-only newsletter, those who subscribe (checked again as each mail is sent).
 */
export async function audienceNow(db: Database, newsletter: Newsletter, now: Date): Promise<{ followers: number; recipients: number }> {
  const ids = (await followersOf(db, newsletter.slug).select("follow.user_id").execute()).map((r) => r.user_id);
  const recipients = newsletter.subscriberOnly ? (await subscribersAmong(db, ids, now)).size : ids.length;
  return { followers: ids.length, recipients };
}

/** The reader the desk's preview writes to: the newsletter's longest follower, if it has one. */
export async function sampleRecipient(db: Database, slug: string): Promise<IssueRecipient | undefined> {
  const row = await followersOf(db, slug)
    .select(["app_user.id", "app_user.email", "app_user.first_name"])
    .orderBy("follow.created_at")
    .orderBy("follow.user_id")
    .executeTakeFirst();
  return row && { userId: row.id, email: row.email, firstName: row.first_name };
}

/** What an issue says as mailed: its published articles only (one unpublished since it was chosen is left out). */
export async function issueContent(db: Database, issue: Pick<DeskIssue, "subject" | "preheader" | "intro" | "articles">, siteUrl: string) {
  const published = await articlesPublished(
    db,
    issue.articles.map((a) => a.id),
  );
  return {
    subject: issue.subject,
    preheader: issue.preheader,
    intro: issue.intro,
    articles: issue.articles.flatMap((a) => {
      const row = published.get(a.id);
      return row ? [issueArticle(row, siteUrl)] : [];
    }),
  } satisfies IssueContent;
}

async function articlesPublished(db: Database, ids: number[]) {
  if (ids.length === 0) return new Map<number, never>();
  const rows = await db.selectFrom("article").select(["id", "title", "summary", "slug", "year", "month"]).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** What the audit log keeps of an issue. */
const snapshot = (issue: DeskIssue) => ({
  newsletter: issue.newsletter.slug,
  subject: issue.subject,
  preheader: issue.preheader,
  intro: issue.intro,
  articles: issue.articles.map((a) => a.slug),
});

/** Only what changed, with the version before and after. */
function changed(before: DeskIssue, after: DeskIssue) {
  const [b, a] = [snapshot(before), snapshot(after)];
  const keys = (Object.keys(a) as (keyof typeof a)[]).filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]));
  return {
    before: { version: before.version, ...Object.fromEntries(keys.map((key) => [key, b[key]])) },
    after: { version: after.version, ...Object.fromEntries(keys.map((key) => [key, a[key]])) },
  };
}

/** How the audit log names an issue. */
export const auditSubject = (issue: Pick<DeskIssue, "id" | "newsletter">) => `newsletter-issue:${issue.newsletter.slug}#${issue.id}`;

const conflict = (current: DeskIssue): IssueResult => ({
  ok: false,
  reason: "conflict",
  current,
  by: current.updatedBy,
  at: current.updatedAt,
});

const refused = (issue: DeskIssue, message: string): IssueResult => ({ ok: false, reason: "state", message, issue });

async function writeArticles(tx: Database, issueId: number, articleIds: readonly number[]): Promise<void> {
  await tx.deleteFrom("newsletter_issue_article").where("issue_id", "=", issueId).execute();
  if (articleIds.length > 0)
    await tx
      .insertInto("newsletter_issue_article")
      .values(articleIds.map((article_id, position) => ({ issue_id: issueId, position, article_id })))
      .execute();
}

/**
 * A new draft of this newsletter at version 1, filled in as the command line's template does:
 * the newsletter's description and its newest articles. Undefined for an unknown newsletter.
 */
export async function createIssue(db: Database, actor: AuditActor, slug: string, now: Date): Promise<DeskIssue | undefined> {
  const newsletter = await newsletterBySlug(db, slug);
  if (!newsletter) return undefined;
  const newest = await db
    .selectFrom("article")
    .select(["id", "title", "summary", "slug", "year", "month"])
    .orderBy("published", "desc")
    .orderBy("id", "desc")
    .limit(ISSUE_ARTICLES)
    .execute();
  // The template's text from the articles' titles; their addresses are made when it is mailed.
  const template = templateIssue(
    newsletter,
    newest.map((a) => issueArticle(a, "")),
  );
  return inTransaction(db, async (tx) => {
    // Ids are max(id) + 1: two new issues at once take turns.
    if (isPostgres(tx)) await sql`select pg_advisory_xact_lock(hashtextextended('newsletter_issue:ids', 0))`.execute(tx);
    const max = await tx
      .selectFrom("newsletter_issue")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    const id = Number(max.id ?? 0) + 1;
    const at = now.toISOString();
    const row = await tx.selectFrom("newsletter").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
    await tx
      .insertInto("newsletter_issue")
      .values({
        id,
        newsletter_id: row.id,
        status: "draft",
        subject: template.subject,
        preheader: template.preheader,
        intro: template.intro,
        version: 1,
        created_at: at,
        created_by_name: actor.label,
        updated_at: at,
        updated_by_name: actor.label,
        send_at: null,
        queued_at: null,
        queued_by_name: null,
        started_at: null,
        sent_at: null,
        recipient_count: null,
        sent_count: null,
        failed_count: null,
        skipped_count: null,
      })
      .execute();
    await writeArticles(
      tx,
      id,
      newest.map((a) => a.id),
    );
    const issue = (await getIssue(tx, id))!;
    await recordAudit(tx, { actor, action: "newsletter-issue.create", subject: auditSubject(issue), after: snapshot(issue) }, now);
    return { result: issue, generation: null };
  });
}

/** Why a draft's state refuses a change, or null for a draft. */
function notDraft(issue: DeskIssue): string | null {
  if (issue.status === "draft") return null;
  return issue.status === "queued" ? ISSUE_WAITING : ISSUE_SENT;
}

/**
 * Saves a draft's fields and articles, if it is still at `expectedVersion`: a stale save writes
 * nothing and answers with the issue as it is now, and who changed it when.
 */
export function saveIssue(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  change: IssueChange,
  now: Date,
): Promise<IssueResult> {
  return inTransaction(db, async (tx) => {
    const before = await getIssue(tx, id);
    if (!before) throw new Outcome<IssueResult>({ ok: false, reason: "missing" });
    const state = notDraft(before);
    if (state) throw new Outcome(refused(before, state));
    if (before.version !== expectedVersion) throw new Outcome(conflict(before));
    const ids = change.articleIds;
    if (ids.length > ISSUE_MAX_ARTICLES)
      throw new Outcome<IssueResult>({ ok: false, reason: "invalid", fieldErrors: { articles: [ISSUE_MESSAGES.articles] } });
    const problem = choiceProblem(await articlesInOrder(tx, ids), ids, new Set(before.articles.map((a) => a.id)));
    if (problem) throw new Outcome<IssueResult>({ ok: false, reason: "invalid", fieldErrors: { articles: [problem] } });
    const updated = await tx
      .updateTable("newsletter_issue")
      .set((eb) => ({
        subject: change.subject,
        preheader: change.preheader,
        intro: change.intro,
        version: eb("version", "+", 1),
        updated_at: now.toISOString(),
        updated_by_name: actor.label,
      }))
      .where("id", "=", id)
      .where("status", "=", "draft")
      .where("version", "=", expectedVersion)
      .executeTakeFirst();
    // Another save got in between our reading and our writing: it wins, ours writes nothing.
    if (Number(updated.numUpdatedRows) === 0) throw new Outcome(conflict((await getIssue(tx, id))!));
    await writeArticles(tx, id, ids);
    const after = (await getIssue(tx, id))!;
    await recordAudit(tx, { actor, action: "newsletter-issue.save", subject: auditSubject(after), ...changed(before, after) }, now);
    return { result: { ok: true, issue: after }, generation: null };
  });
}

/** One move of an issue's state, conditional on the state and version it was read at, and audited. */
async function move(
  db: Database,
  actor: AuditActor,
  id: number,
  now: Date,
  plan: (issue: DeskIssue) => { set: Record<string, string | null>; action: AuditAction } | IssueResult,
): Promise<IssueResult> {
  return inTransaction(db, async (tx) => {
    const before = await getIssue(tx, id);
    if (!before) throw new Outcome<IssueResult>({ ok: false, reason: "missing" });
    const step = plan(before);
    if ("ok" in step) throw new Outcome(step);
    const updated = await tx
      .updateTable("newsletter_issue")
      .set((eb) => ({ ...step.set, version: eb("version", "+", 1), updated_at: now.toISOString(), updated_by_name: actor.label }))
      .where("id", "=", id)
      .where("status", "=", before.status)
      .where("version", "=", before.version)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      const current = (await getIssue(tx, id))!;
      throw new Outcome(current.status === before.status ? conflict(current) : refused(current, notDraft(current) ?? ISSUE_NOT_SCHEDULED));
    }
    const after = (await getIssue(tx, id))!;
    await recordAudit(
      tx,
      {
        actor,
        action: step.action,
        subject: auditSubject(after),
        before: { version: before.version, status: before.status, sendAt: before.sendAt },
        after: { version: after.version, status: after.status, sendAt: after.sendAt, subject: after.subject },
      },
      now,
    );
    return { result: { ok: true, issue: after }, generation: null };
  });
}

/**
 * Queues a draft read at `expectedVersion` to be sent to its newsletter's followers: now, or at
 * `at` when that is later. The scheduled jobs send it (delivery.ts).
 */
export function queueIssue(
  db: Database,
  actor: AuditActor,
  id: number,
  expectedVersion: number,
  at: Date | null,
  now: Date,
): Promise<IssueResult> {
  const later = at !== null && at.getTime() > now.getTime();
  return move(db, actor, id, now, (issue) => {
    if (issue.status === "queued") return refused(issue, ISSUE_QUEUED_ALREADY);
    if (issue.status !== "draft") return refused(issue, ISSUE_SENT);
    if (issue.version !== expectedVersion) return conflict(issue);
    if (issue.intro.trim() === "" && issue.articles.length === 0) return refused(issue, ISSUE_EMPTY);
    return {
      set: {
        status: "queued",
        send_at: (later ? at : now).toISOString(),
        queued_at: now.toISOString(),
        queued_by_name: actor.label,
      },
      action: later ? "newsletter-issue.schedule" : "newsletter-issue.send",
    };
  });
}

/** Takes a queued issue the jobs have not started back to a draft. */
export function unscheduleIssue(db: Database, actor: AuditActor, id: number, now: Date): Promise<IssueResult> {
  return move(db, actor, id, now, (issue) =>
    issue.status === "queued"
      ? { set: { status: "draft", send_at: null, queued_at: null, queued_by_name: null }, action: "newsletter-issue.unschedule" }
      : refused(issue, issue.status === "draft" ? ISSUE_NOT_SCHEDULED : ISSUE_SENT),
  );
}
