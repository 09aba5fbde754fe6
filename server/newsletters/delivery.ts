import crypto from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "kysely";
import type { Mailer } from "~/server/adapters/mail";
import type { Database } from "~/server/db/connection";
import { Outcome, inTransaction } from "~/server/desk/articles/write";
import { subscribersAmong } from "~/server/subscriptions/entitlements";
import { composeIssue, issueMessageId } from "./issue";
import { getIssue, issueContent } from "./issues";

// Sending an issue to its followers (ADR 084), as the scheduled jobs of every instance do at
// once, and the command line. An issue whose time has come is started once: its state moves from
// queued to sending and one delivery row per follower is written, in one transaction. Senders
// then claim its rows in batches (a conditional update that only one of them wins), re-take each
// row just before its mail goes (so a sender that stalled past its claim skips a row someone else
// took over), and mark it sent, failed or skipped straight after. A sender killed mid-batch
// leaves its rows claimed until the claim lapses; then another sends them. The one mail that can
// go twice is one whose sender was killed between the mail server's acceptance and the mark: it
// carries the same Message-ID both times, so mail systems can drop the copy.

/** Recipients a sender claims at a time. */
export const DELIVERY_BATCH = 50;
/** How long a claim holds its rows: far longer than a batch's mails take, so only a dead sender's claim lapses. */
export const DELIVERY_CLAIM_MS = 10 * 60_000;

export interface DeliveryOptions {
  siteUrl: string;
  secret: string;
  /** The clock (tests move it on). */
  now?: () => Date;
  batchSize?: number;
  /** Asked between mails: true stops the run, handing back what it holds. */
  stopping?: () => boolean;
  log?: (line: string) => void;
}

export interface DeliveryTally {
  sent: number;
  failed: number;
  skipped: number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Starts a queued issue whose time has come: sending, with a delivery row for each reader who
 * follows its newsletter now. Answers whether this call started it (another sender may have).
 */
export function startIssue(db: Database, issueId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  return inTransaction(db, async (tx) => {
    const started = await tx
      .updateTable("newsletter_issue")
      .set({ status: "sending", started_at: at })
      .where("id", "=", issueId)
      .where("status", "=", "queued")
      .where("send_at", "<=", at)
      .executeTakeFirst();
    if (Number(started.numUpdatedRows) !== 1) throw new Outcome(false);
    const { slug } = await tx
      .selectFrom("newsletter_issue")
      .innerJoin("newsletter", "newsletter.id", "newsletter_issue.newsletter_id")
      .select("newsletter.slug")
      .where("newsletter_issue.id", "=", issueId)
      .executeTakeFirstOrThrow();
    const inserted = await tx
      .insertInto("newsletter_delivery")
      .columns(["issue_id", "user_id", "state"])
      .expression(
        tx
          .selectFrom("follow")
          .select([sql.lit(issueId).as("issue_id"), "user_id", sql.lit("pending").as("state")])
          .where("kind", "=", "newsletter")
          .where("target", "=", slug),
      )
      .executeTakeFirst();
    await tx
      .updateTable("newsletter_issue")
      .set({ recipient_count: Number(inserted.numInsertedOrUpdatedRows ?? 0) })
      .where("id", "=", issueId)
      .execute();
    return { result: true, generation: null };
  });
}

/** A row no live claim holds. */
const free = (at: string) =>
  sql<boolean>`(${sql.ref("state")} = 'pending' or (${sql.ref("state")} = 'claimed' and ${sql.ref("claimed_until")} <= ${at}))`;

interface Batch {
  claim: string;
  rows: { userId: string; email: string; firstName: string }[];
}

/** Claims up to `size` of the issue's free rows; null when none is left to claim. */
async function claimBatch(db: Database, issueId: number, size: number, now: Date): Promise<Batch | null> {
  const at = now.toISOString();
  const candidates = await db
    .selectFrom("newsletter_delivery")
    .select("user_id")
    .where("issue_id", "=", issueId)
    .where(free(at))
    .orderBy("user_id")
    .limit(size)
    .execute();
  if (candidates.length === 0) return null;
  const claim = crypto.randomUUID();
  // Of two senders that read the same rows, the second's update finds them claimed and takes none.
  await db
    .updateTable("newsletter_delivery")
    .set({ state: "claimed", claim, claimed_until: new Date(now.getTime() + DELIVERY_CLAIM_MS).toISOString() })
    .where("issue_id", "=", issueId)
    .where(
      "user_id",
      "in",
      candidates.map((c) => c.user_id),
    )
    .where(free(at))
    .execute();
  const rows = await db
    .selectFrom("newsletter_delivery")
    .innerJoin("app_user", "app_user.id", "newsletter_delivery.user_id")
    .select(["app_user.id", "app_user.email", "app_user.first_name"])
    .where("newsletter_delivery.issue_id", "=", issueId)
    .where("newsletter_delivery.claim", "=", claim)
    .where("newsletter_delivery.state", "=", "claimed")
    .orderBy("app_user.id")
    .execute();
  return { claim, rows: rows.map((r) => ({ userId: r.id, email: r.email, firstName: r.first_name })) };
}

/** Marks a row of this claim done. */
function mark(
  db: Database,
  issueId: number,
  userId: string,
  claim: string,
  state: "sent" | "failed" | "skipped",
  now: Date,
  error?: string,
) {
  return db
    .updateTable("newsletter_delivery")
    .set({ state, done_at: now.toISOString(), error: error ?? null, claim: null, claimed_until: null })
    .where("issue_id", "=", issueId)
    .where("user_id", "=", userId)
    .where("claim", "=", claim)
    .where("state", "=", "claimed")
    .execute();
}

/**
 * Sends the issue's rows that no one else holds, batch after batch, then marks the issue sent
 * once no row is left undone. Readers who stopped following since it started, or (for a
 * subscriber-only newsletter) who no longer subscribe when their mail's turn comes, are skipped.
 * A refused address is counted as failed and the rest go on.
 */
export async function deliverIssue(db: Database, mailer: Mailer, issueId: number, options: DeliveryOptions): Promise<DeliveryTally> {
  const clock = options.now ?? (() => new Date());
  const tally: DeliveryTally = { sent: 0, failed: 0, skipped: 0 };
  const issue = await getIssue(db, issueId);
  if (!issue || issue.status !== "sending") return tally;
  const content = await issueContent(db, issue, options.siteUrl);
  const { newsletter } = issue;
  for (;;) {
    if (options.stopping?.()) return tally;
    const batch = await claimBatch(db, issueId, options.batchSize ?? DELIVERY_BATCH, clock());
    if (!batch) break;
    const ids = batch.rows.map((r) => r.userId);
    const following = new Set(
      ids.length === 0
        ? []
        : (
            await db
              .selectFrom("follow")
              .select("user_id")
              .where("kind", "=", "newsletter")
              .where("target", "=", newsletter.slug)
              .where("user_id", "in", ids)
              .execute()
          ).map((r) => r.user_id),
    );
    const subscribers = newsletter.subscriberOnly ? await subscribersAmong(db, ids, clock()) : null;
    for (const recipient of batch.rows) {
      // Pages waiting on this process go first.
      await nextTurn();
      if (options.stopping?.()) {
        await release(db, issueId, batch.claim);
        return tally;
      }
      if (!following.has(recipient.userId) || (subscribers && !subscribers.has(recipient.userId))) {
        await mark(db, issueId, recipient.userId, batch.claim, "skipped", clock());
        tally.skipped++;
        continue;
      }
      const now = clock();
      const taken = await db
        .updateTable("newsletter_delivery")
        .set({ claimed_until: new Date(now.getTime() + DELIVERY_CLAIM_MS).toISOString() })
        .where("issue_id", "=", issueId)
        .where("user_id", "=", recipient.userId)
        .where("claim", "=", batch.claim)
        .where("state", "=", "claimed")
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      const message = composeIssue({
        newsletter,
        content,
        recipient,
        siteUrl: options.siteUrl,
        secret: options.secret,
        messageId: issueMessageId(issueId, recipient.userId, options.siteUrl),
      });
      try {
        await mailer.send(message);
      } catch (error) {
        await mark(db, issueId, recipient.userId, batch.claim, "failed", clock(), errorText(error));
        tally.failed++;
        options.log?.(`newsletter issue ${issueId}: sending to reader ${recipient.userId} failed: ${errorText(error)}`);
        continue;
      }
      await mark(db, issueId, recipient.userId, batch.claim, "sent", clock());
      tally.sent++;
    }
  }
  await finishIssue(db, issueId, clock());
  return tally;
}

/** Hands a stopping sender's rows back at once, rather than when its claim lapses. */
function release(db: Database, issueId: number, claim: string) {
  return db
    .updateTable("newsletter_delivery")
    .set({ state: "pending", claim: null, claimed_until: null })
    .where("issue_id", "=", issueId)
    .where("claim", "=", claim)
    .where("state", "=", "claimed")
    .execute();
}

/** Marks a sending issue sent, with its counts, once every row is done; of two senders at once, one does. */
async function finishIssue(db: Database, issueId: number, now: Date): Promise<void> {
  const rows = await db
    .selectFrom("newsletter_delivery")
    .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
    .where("issue_id", "=", issueId)
    .groupBy("state")
    .execute();
  const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  if (of("pending") + of("claimed") > 0) return;
  await db
    .updateTable("newsletter_issue")
    .set({ status: "sent", sent_at: now.toISOString(), sent_count: of("sent"), failed_count: of("failed"), skipped_count: of("skipped") })
    .where("id", "=", issueId)
    .where("status", "=", "sending")
    .execute();
}

export interface DueRun extends DeliveryTally {
  /** The issues this run started, and those it sent mail of. */
  started: number[];
  issues: number[];
}

/**
 * What the scheduled jobs run every few seconds, on every instance: starts the queued issues
 * whose time has come, then sends what is left of every issue being sent.
 */
export async function sendDueIssues(db: Database, mailer: Mailer, options: DeliveryOptions): Promise<DueRun> {
  const clock = options.now ?? (() => new Date());
  const run: DueRun = { started: [], issues: [], sent: 0, failed: 0, skipped: 0 };
  const due = await db
    .selectFrom("newsletter_issue")
    .select("id")
    .where("status", "=", "queued")
    .where("send_at", "<=", clock().toISOString())
    .orderBy("send_at")
    .orderBy("id")
    .execute();
  for (const { id } of due) if (await startIssue(db, id, clock())) run.started.push(id);
  const sending = await db.selectFrom("newsletter_issue").select("id").where("status", "=", "sending").orderBy("id").execute();
  for (const { id } of sending) {
    if (options.stopping?.()) break;
    const tally = await deliverIssue(db, mailer, id, options);
    if (tally.sent + tally.failed + tally.skipped > 0) run.issues.push(id);
    run.sent += tally.sent;
    run.failed += tally.failed;
    run.skipped += tally.skipped;
  }
  return run;
}

/** The run's line for the jobs' log; null when it did nothing. */
export function describeDueRun(run: DueRun): string | null {
  if (run.started.length === 0 && run.issues.length === 0) return null;
  return `Newsletter issues: started ${run.started.length}, mailed from ${run.issues.length}: sent ${run.sent}, failed ${run.failed}, skipped ${run.skipped}`;
}
