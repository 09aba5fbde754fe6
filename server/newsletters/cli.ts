// npm run newsletter:send -- <slug>
// Sends an issue of the fixed template (the newsletter's description and its newest articles)
// to everyone following it, through the configured mailer (SMTP_URL, else .eml files in
// DATA_DIR/mail). The issue is made and sent as the desk's are (ADR 084), so it is listed at
// /desk/newsletters and each reader gets it once; the desk composes issues of its own.
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
