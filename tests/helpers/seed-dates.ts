import type { ConnectionOptions } from "~/server/db/connection";
import { selectFromServer } from "./server-db";

// The seed's dates that must stay ahead of whatever day a site is seeded on (coming-soon items,
// print subscriptions' ends) are written as days after seeding (content/README.md). Tests read
// them from the database the site was seeded into, so none depends on today's date.

const DAY_MS = 86_400_000;
const SPEC_DAY = new Intl.DateTimeFormat("en-US", { month: "long", day: "2-digit", year: "numeric", timeZone: "UTC" });

/** A day ("YYYY-MM-DD") as the spec's publication format writes it, "MMMM DD, YYYY": "February 09, 2027". */
export const specDay = (day: string) => SPEC_DAY.format(new Date(`${day}T00:00:00Z`));

/** Noon in New York (outside the store's maintenance window) the day before and the day after `day`: a job's rounds around a date. */
export function noonAround(day: string): { dayBefore: Date; dayAfter: Date } {
  const noon = Date.parse(`${day}T17:00:00.000Z`);
  return { dayBefore: new Date(noon - DAY_MS), dayAfter: new Date(noon + DAY_MS) };
}

/** The day a seed availability goes on sale, in a test server's own database. */
export async function availableDateOnServer(database: ConnectionOptions, availabilityId: number): Promise<string> {
  const [row] = await selectFromServer<{ available_date: string | null }>(
    database,
    "select available_date from product_availability where id = ?",
    [availabilityId],
  );
  if (!row?.available_date) throw new Error(`availability ${availabilityId} has no date in the seed`);
  return row.available_date;
}
