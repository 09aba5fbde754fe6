import type { Transaction } from "kysely";
import type { DB } from "~/server/db/schema";
import type { Database } from "~/server/db/connection";
import { loadSeedContent } from "./content-source";
import { seedCourses } from "./courses";
import { loadAccountRecords, seedAccountRecords } from "./account-records";
import { seedContent } from "./seed-content";
import { seedProductCompanions } from "./product-companions";
import { seedProductTexts } from "./product-texts";
import { seedStoreOffers } from "./store-offers";
import { indexUnindexedContent } from "~/server/search/documents";

/**
 * Runs each seed step that has not run yet on a migrated database (server/db's openDatabase):
 * the search index of content written before there was one, the content read from contentDir,
 * the publisher's account records, the store's promo codes and vouchers, the text its downloads
 * are made of, then its "Better together" pairings, and the courses. Safe to run from several
 * instances at once: a step's marker is written in the same transaction as its data, so a second
 * instance's insert fails and it goes on with the data the first one committed. Store dates and
 * print subscriptions' ends given as days after seeding count from `now`.
 */
export async function seedDatabase(db: Database, contentDir: string, now = new Date()): Promise<void> {
  await seedOnce(db, "search-index", (tx) => indexUnindexedContent(tx));
  await seedOnce(db, "content", (tx) => seedContent(tx, loadSeedContent(contentDir), now));
  await seedOnce(db, "accounts", (tx) => seedAccountRecords(tx, loadAccountRecords(contentDir), now));
  await seedOnce(db, "store-offers", (tx) => seedStoreOffers(tx, loadSeedContent(contentDir).store));
  await seedOnce(db, "product-texts", (tx) => seedProductTexts(tx, loadSeedContent(contentDir)));
  await seedOnce(db, "product-companions", (tx) => seedProductCompanions(tx, loadSeedContent(contentDir).store));
  await seedOnce(db, "courses", (tx) => seedCourses(tx, loadSeedContent(contentDir).courses));
}

/** Runs a seed step unless its marker says it ran; the marker commits with the data. */
async function seedOnce(db: Database, name: string, seed: (tx: Transaction<DB>) => Promise<unknown>): Promise<void> {
  const done = () => db.selectFrom("seed_state").select("name").where("name", "=", name).executeTakeFirst();
  if (await done()) return;
  try {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto("seed_state").values({ name, completed_at: new Date().toISOString() }).execute();
      await seed(tx);
    });
  } catch (error) {
    if (!(await done())) throw error;
  }
}
