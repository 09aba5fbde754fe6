import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { daysOf, rangeBounds, type ReportRange } from "./range";

// The meter funnel by A/B tag (ADR 090):
// - guests walled: guests (by visitor cookie) who met the registration wall in the range, each once;
// - registrations from the wall: accounts opened from the registration wall's form;
// - readers shown the subscribe wall: registered readers whose meter had run out, each once;
// - subscriptions from the wall: paid checkouts activated in the range that carried the tag from
//   the paywall's call to action (the subscribe wall, the meter's counter or the video wall).
// Checkouts that came with no tag ("direct") are counted apart.

/** The checkouts' tag for a plan bought without coming from a wall (app/routes/subscriptions.tsx). */
export const DIRECT_TAG = "direct";

export interface FunnelRow {
  tag: string;
  guestsWalled: number;
  registrations: number;
  /** registrations ÷ guestsWalled; null when none were walled. */
  registrationRate: number | null;
  subscribeWalled: number;
  subscriptions: number;
  /** subscriptions ÷ subscribeWalled; null when none were shown the wall. */
  subscriptionRate: number | null;
}

export interface FunnelReport {
  range: ReportRange;
  /** One row per tag met in the range, by tag. */
  rows: FunnelRow[];
  /** Every tag together: a reader walled under two tags is one reader here. */
  total: FunnelRow;
  /** Subscriptions bought in the range without a wall's tag. */
  direct: number;
}

const rate = (n: number, of: number) => (of > 0 ? n / of : null);

/**
 * How many readers met each wall in the range, by tag or over all tags. The same count written
 * the way each database does it fastest (bench/reports.ts): SQLite walks wall_view's key, ordered
 * by wall, tag and reader, counting distinct readers as they come; PostgreSQL (before 16) sorts
 * for `count(distinct)`, so it hashes the distinct rows first and counts them.
 */
async function distinctViewers(
  db: Database,
  range: ReportRange,
  byTag: boolean,
): Promise<{ wall: string; tag: string; readers: unknown }[]> {
  const inRange = db.selectFrom("wall_view").where("day", ">=", range.from).where("day", "<=", range.to);
  if (isPostgres(db)) {
    if (byTag)
      return db
        .selectFrom(inRange.select(["wall", "ab_tag", "viewer"]).distinct().as("v"))
        .select((eb) => ["v.wall", "v.ab_tag as tag", eb.fn.countAll().as("readers")])
        .groupBy(["v.wall", "v.ab_tag"])
        .execute();
    const walls = await db
      .selectFrom(inRange.select(["wall", "viewer"]).distinct().as("v"))
      .select((eb) => ["v.wall", eb.fn.countAll().as("readers")])
      .groupBy("v.wall")
      .execute();
    return walls.map((r) => ({ ...r, tag: "" }));
  }
  const query = inRange.select((eb) => ["wall", eb.fn.count("viewer").distinct().as("readers")]);
  return byTag
    ? query.select("ab_tag as tag").groupBy(["wall", "ab_tag"]).execute()
    : (await query.groupBy("wall").execute()).map((r) => ({ ...r, tag: "" }));
}

/** A day's registrations from the wall and activated checkouts of one tag ("direct" for those without one). */
export interface FunnelDayCounts {
  day: string;
  tag: string;
  registrations: number;
  subscriptions: number;
}

const registrationDay = sql<string>`substr(registered_at, 1, 10)`;
const activationDay = sql<string>`substr(activated_at, 1, 10)`;

/** The registrations and activated checkouts of a range's days, by day and tag, from their own rows. */
export async function liveFunnelCounts(db: Database, range: ReportRange): Promise<FunnelDayCounts[]> {
  const { start, end } = rangeBounds(range);
  const [registrations, checkouts] = await Promise.all([
    db
      .selectFrom("wall_registration")
      .select((eb) => [registrationDay.as("day"), "ab_tag as tag", eb.fn.countAll().as("n")])
      .where("registered_at", ">=", start)
      .where("registered_at", "<", end)
      .groupBy([registrationDay, "ab_tag"])
      .execute(),
    db
      .selectFrom("subscription_checkout")
      .select((eb) => [activationDay.as("day"), "ab_tag as tag", eb.fn.countAll().as("n")])
      .where("status", "=", "activated")
      .where("activated_at", ">=", start)
      .where("activated_at", "<", end)
      .groupBy([activationDay, "ab_tag"])
      .execute(),
  ]);
  const counts = new Map<string, FunnelDayCounts>();
  const of = (day: string, tag: string) => {
    const key = `${day}|${tag}`;
    let found = counts.get(key);
    if (!found) counts.set(key, (found = { day, tag, registrations: 0, subscriptions: 0 }));
    return found;
  };
  for (const r of registrations) of(r.day, r.tag).registrations = Number(r.n);
  for (const c of checkouts) of(c.day, c.tag).subscriptions = Number(c.n);
  return [...counts.values()];
}

/**
 * The range's counts by day and tag: its closed days as rolled up (rollup.ts), the others from the
 * registrations and checkouts. The rolled-up days are read first, as the sales' are.
 */
async function funnelCounts(db: Database, range: ReportRange): Promise<FunnelDayCounts[]> {
  const rolled = new Set(
    (await db.selectFrom("report_day").select("day").where("day", ">=", range.from).where("day", "<=", range.to).execute()).map(
      (d) => d.day,
    ),
  );
  const rolledCounts = (
    await db
      .selectFrom("report_funnel_day")
      .select(["day", "ab_tag as tag", "registrations", "subscriptions"])
      .where("day", ">=", range.from)
      .where("day", "<=", range.to)
      .execute()
  ).filter((c) => rolled.has(c.day));
  const open = daysOf(range).filter((day) => !rolled.has(day));
  if (open.length === 0) return rolledCounts;
  const live = await liveFunnelCounts(db, { from: open[0]!, to: open.at(-1)! });
  return [...rolledCounts, ...live.filter((c) => !rolled.has(c.day))];
}

export async function funnelReport(db: Database, range: ReportRange): Promise<FunnelReport> {
  const [views, allViews, counts] = await Promise.all([
    distinctViewers(db, range, true),
    distinctViewers(db, range, false),
    funnelCounts(db, range),
  ]);
  const rows = new Map<string, FunnelRow>();
  const row = (tag: string) => {
    let found = rows.get(tag);
    if (!found) {
      found = {
        tag,
        guestsWalled: 0,
        registrations: 0,
        registrationRate: null,
        subscribeWalled: 0,
        subscriptions: 0,
        subscriptionRate: null,
      };
      rows.set(tag, found);
    }
    return found;
  };
  for (const v of views) {
    if (v.wall === "registration") row(v.tag).guestsWalled = Number(v.readers);
    else row(v.tag).subscribeWalled = Number(v.readers);
  }
  let direct = 0;
  for (const c of counts) {
    if (c.registrations > 0) row(c.tag).registrations += c.registrations;
    if (c.subscriptions === 0) continue;
    if (c.tag === DIRECT_TAG) direct += c.subscriptions;
    else row(c.tag).subscriptions += c.subscriptions;
  }
  const withRates = (r: FunnelRow): FunnelRow => ({
    ...r,
    registrationRate: rate(r.registrations, r.guestsWalled),
    subscriptionRate: rate(r.subscriptions, r.subscribeWalled),
  });
  const list = [...rows.values()].sort((a, b) => a.tag.localeCompare(b.tag)).map(withRates);
  const readers = (wall: string) => Number(allViews.find((v) => v.wall === wall)?.readers ?? 0);
  const total = withRates({
    tag: "All tags",
    guestsWalled: readers("registration"),
    registrations: list.reduce((n, r) => n + r.registrations, 0),
    registrationRate: null,
    subscribeWalled: readers("subscribe"),
    subscriptions: list.reduce((n, r) => n + r.subscriptions, 0),
    subscriptionRate: null,
  });
  return { range, rows: list, total, direct };
}
