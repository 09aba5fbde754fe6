// npm run newsletter:send -- <slug>
// Sends the newsletter's latest issue to everyone following it, through the configured mailer
// (SMTP_URL, else .eml files in DATA_DIR/mail).
import { commandSiteUrl } from "~/server/site-address";
import { mailer } from "~/server/adapters/mail";
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import { seedDatabase } from "~/server/seed/initialize";
import { secrets } from "~/server/secrets";
import { listNewsletters } from "./catalog";
import { sendLatestIssue } from "./send";

async function main() {
  const slug = process.argv[2];
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    await seedDatabase(db, c.contentDir);
    const known = (await listNewsletters(db)).map((n) => n.slug);
    if (!slug || !known.includes(slug)) {
      throw new Error(`usage: npm run newsletter:send -- <slug>   (one of: ${known.join(", ")})`);
    }
    const result = await sendLatestIssue(db, mailer(), slug, {
      siteUrl: commandSiteUrl(c),
      secret: secrets().sessionSecret,
      log: (line) => console.error(line),
    });
    console.log(`${slug}: sent ${result!.sent}, failed ${result!.failed}.`);
    if (result!.failed > 0) process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
