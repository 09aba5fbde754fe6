import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { rangeBounds, type ReportRange } from "./range";

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

export async function funnelReport(db: Database, range: ReportRange): Promise<FunnelReport> {
  const { start, end } = rangeBounds(range);
  const [views, allViews, registrations, checkouts] = await Promise.all([
    distinctViewers(db, range, true),
    distinctViewers(db, range, false),
    db
      .selectFrom("wall_registration")
      .select((eb) => ["ab_tag as tag", eb.fn.countAll().as("n")])
      .where("registered_at", ">=", start)
      .where("registered_at", "<", end)
      .groupBy("ab_tag")
      .execute(),
    db
      .selectFrom("subscription_checkout")
      .select((eb) => ["ab_tag as tag", eb.fn.countAll().as("n")])
      .where("status", "=", "activated")
      .where("activated_at", ">=", start)
      .where("activated_at", "<", end)
      .groupBy("ab_tag")
      .execute(),
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
  for (const r of registrations) row(r.tag).registrations = Number(r.n);
  let direct = 0;
  for (const c of checkouts) {
    if (c.tag === DIRECT_TAG) direct = Number(c.n);
    else row(c.tag).subscriptions = Number(c.n);
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
