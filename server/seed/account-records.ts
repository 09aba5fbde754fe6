import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Database } from "~/server/db/connection";
import { seedDate, seedDay } from "./content-source";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const accountRecordsSchema = z.object({
  printSubscribers: z.array(
    z.object({
      accountNumber: z.string().min(1),
      email: z.string().email(),
      firstName: z.string().min(1),
      lastName: z.string().min(1),
      source: z.string().min(1),
      subscriptionCode: z.string().min(1),
      active: z.boolean(),
      accessStart: day,
      accessEnd: seedDay,
    }),
  ),
  restrictedAddresses: z.array(z.object({ pattern: z.string().regex(/^[^@\s]*@[^@\s]+$/), reason: z.string().min(1) })),
});

export type AccountRecords = z.infer<typeof accountRecordsSchema>;

export function loadAccountRecords(contentDir: string): AccountRecords {
  const file = path.join(contentDir, "accounts.json");
  if (!fs.existsSync(file)) return { printSubscribers: [], restrictedAddresses: [] };
  return accountRecordsSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
}

/** Loads the records; an end written as days after seeding counts from `now`. */
export async function seedAccountRecords(db: Database, records: AccountRecords, now: Date): Promise<void> {
  for (const r of records.printSubscribers) {
    await db
      .insertInto("print_subscriber")
      .values({
        account_number: r.accountNumber,
        email: r.email.toLowerCase(),
        first_name: r.firstName,
        last_name: r.lastName,
        source: r.source,
        subscription_code: r.subscriptionCode,
        active: r.active ? 1 : 0,
        access_start: r.accessStart,
        access_end: seedDate(r.accessEnd, now),
      })
      .execute();
  }
  for (const r of records.restrictedAddresses) {
    await db.insertInto("restricted_address").values({ pattern: r.pattern.toLowerCase(), reason: r.reason }).execute();
  }
}
