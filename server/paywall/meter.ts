import { sql, type Transaction } from "kysely";
import { isPostgres } from "~/server/db/dialect";
import type { Database } from "~/server/db/connection";
import type { DB } from "~/server/db/schema";
import { userKey, visitorKey } from "~/server/readers/keys";

/** Guests have two meters (spec: articles 4, Ascend pages 3); registered readers use "article". */
export type MeterName = "article" | "ascend";

export interface Quota {
  limit: number;
  count: number;
  remaining: number;
}

/** Meters run per calendar month (UTC). */
export function meterPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

function quota(limit: number, count: number): Quota {
  return { limit, count, remaining: Math.max(0, limit - count) };
}

/** One reader's reads on one meter in one month. */
interface Scope {
  key: string;
  period: string;
  meter: MeterName;
}

const columns = (scope: Scope) => ({ meter_key: scope.key, period: scope.period, meter: scope.meter });

async function countReads(db: Database | Transaction<DB>, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom("meter_read")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where((eb) => eb.and(columns(scope)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function readQuota(db: Database, key: string, meter: MeterName, limit: number, now = new Date()): Promise<Quota> {
  return quota(limit, await countReads(db, { key, meter, period: meterPeriod(now) }));
}

export type ReadOutcome = { allowed: boolean; quota: Quota };

/** The monthly ceiling of guest reads from one network address, whatever cookies it sends. */
export interface AddressCeiling {
  address: string;
  limit: number;
}

async function countAddressReads(db: Database | Transaction<DB>, address: string, period: string): Promise<number> {
  const row = await db
    .selectFrom("meter_read")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("client_address", "=", address)
    .where("period", "=", period)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What this month's meter shows for an article, read in one statement without a transaction. */
interface MeterState {
  counted: boolean;
  count: number;
  /** The address's guest reads this month; 0 when no ceiling applies. */
  addressCount: number;
}

// SQL text, not Kysely's builder: every metered page asks this, and building it took about 70 µs
// against 20 for the text, for a query SQLite answers in 6 (ADR 094).
async function meterState(db: Database, scope: Scope, articleId: number, ceiling: AddressCeiling | undefined): Promise<MeterState> {
  const address = ceiling
    ? sql`(select count(*) from meter_read where client_address = ${ceiling.address} and period = ${scope.period})`
    : sql`0`;
  const { rows } = await sql<{ n: number | string; mine: number | string | null; address: number | string }>`
    select count(*) as n, sum(case when article_id = ${articleId} then 1 else 0 end) as mine, ${address} as address
    from meter_read where meter_key = ${scope.key} and period = ${scope.period} and meter = ${scope.meter}`.execute(db);
  const row = rows[0]!;
  return { counted: Number(row.mine ?? 0) > 0, count: Number(row.n), addressCount: Number(row.address) };
}

/**
 * Opens an article on a meter. An article already counted this month opens again for free; a
 * new one is counted while reads remain, on the reader's meter and, for a guest, under their
 * address's ceiling; otherwise it is refused. Reads racing for the last free places get exactly
 * those places: each read's transaction holds its meter (and address) until it commits.
 *
 * Within a month a counted article stays counted and the counts only grow, so one read-only
 * statement settles a re-read, and a new article past the limit or the ceiling, at any moment
 * after it ran: only a new article with reads left to it takes the transaction (ADR 094).
 */
export async function openOnMeter(
  db: Database,
  input: { key: string; meter: MeterName; articleId: number; limit: number; ceiling?: AddressCeiling },
  now = new Date(),
): Promise<ReadOutcome> {
  const scope: Scope = { key: input.key, meter: input.meter, period: meterPeriod(now) };
  const thisRead = { ...columns(scope), article_id: input.articleId };
  const { ceiling } = input;
  const seen = await meterState(db, scope, input.articleId, ceiling);
  if (seen.counted) return { allowed: true, quota: quota(input.limit, seen.count) };
  if (seen.count >= input.limit || (ceiling !== undefined && seen.addressCount >= ceiling.limit)) {
    return { allowed: false, quota: quota(input.limit, seen.count) };
  }
  return db.transaction().execute(async (tx) => {
    // Address first, then meter: every read takes them in the same order.
    if (ceiling) await holdUntilCommit(tx, `meter-address|${ceiling.address}|${scope.period}`);
    await holdUntilCommit(tx, `meter|${scope.key}|${scope.period}|${scope.meter}`);
    const inserted = await tx
      .insertInto("meter_read")
      .values({ ...thisRead, read_at: now.toISOString(), client_address: ceiling?.address ?? null })
      .onConflict((oc) => oc.columns(["meter_key", "period", "meter", "article_id"]).doNothing())
      .executeTakeFirst();
    const count = await countReads(tx, scope);
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { allowed: true, quota: quota(input.limit, count) };
    const overCeiling = ceiling !== undefined && (await countAddressReads(tx, ceiling.address, scope.period)) > ceiling.limit;
    if (count > input.limit || overCeiling) {
      await tx
        .deleteFrom("meter_read")
        .where((eb) => eb.and(thisRead))
        .execute();
      return { allowed: false, quota: quota(input.limit, count - 1) };
    }
    return { allowed: true, quota: quota(input.limit, count) };
  });
}

/**
 * Makes other transactions that hold the same name wait until this one ends. PostgreSQL takes
 * a transaction-level advisory lock; SQLite needs nothing, since a transaction's first write
 * takes the whole database's write lock.
 */
async function holdUntilCommit(tx: Transaction<DB>, name: string): Promise<void> {
  if (!isPostgres(tx)) return;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}

/**
 * A guest who registers keeps what they read this month: their reads are copied to the new
 * account's meter (Ascend reads too).
 */
export async function carryOverReads(db: Database, visitorId: string, userId: string, now = new Date()): Promise<void> {
  const period = meterPeriod(now);
  const reads = await db
    .selectFrom("meter_read")
    .select(["meter", "article_id", "read_at"])
    .where("meter_key", "=", visitorKey(visitorId))
    .where("period", "=", period)
    .execute();
  if (reads.length === 0) return;
  await db
    .insertInto("meter_read")
    .values(
      reads.map((r) => ({
        meter_key: userKey(userId),
        period,
        meter: "article" as const,
        article_id: r.article_id,
        read_at: r.read_at,
        client_address: null,
      })),
    )
    .onConflict((oc) => oc.columns(["meter_key", "period", "meter", "article_id"]).doNothing())
    .execute();
}
