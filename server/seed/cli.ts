// npm run seed -- --articles 100000
// Opens (creating, migrating and seeding if needed) the configured database and adds
// synthetic articles for scale tests, with a progress bar on stderr and a final count.
import { config } from "~/server/config";
import { openDatabase } from "~/server/db";
import { seedDatabase } from "./initialize";
import { addSyntheticArticles } from "./synthetic";

function parseArgs(argv: string[]): { articles: number } {
  const at = argv.indexOf("--articles");
  const raw = at >= 0 ? argv[at + 1] : "0";
  if (!raw || !/^\d{1,7}$/.test(raw)) {
    throw new Error("usage: npm run seed -- --articles N   (N a whole number up to 9,999,999)");
  }
  return { articles: Number(raw) };
}

function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")}`;
}

async function main() {
  const { articles } = parseArgs(process.argv.slice(2));
  const c = config();
  const db = await openDatabase({ databaseUrl: c.DATABASE_URL, schema: c.DATABASE_SCHEMA, dataDir: c.dataDir });
  try {
    await seedDatabase(db, c.contentDir);
    const started = Date.now();
    if (articles > 0) {
      await addSyntheticArticles(db, articles, (done) => process.stderr.write(`\r${progressBar(done, articles)}`));
      process.stderr.write("\n");
    }
    const total = await db
      .selectFrom("article")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    console.log(
      `Added ${articles.toLocaleString("en-US")} articles in ${((Date.now() - started) / 1000).toFixed(1)} s; the database now holds ${Number(total.n).toLocaleString("en-US")} articles.`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
