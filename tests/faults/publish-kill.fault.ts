import { fork, type ChildProcess } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { createArticle, publishArticle } from "~/server/desk/articles";
import { COMMAND_LINE, SCHEDULER } from "~/server/desk/audit";
import { newArticleFields } from "~/tests/helpers/article-fields";
import { startBuiltServer } from "~/tests/helpers/server";
import { databaseEnv, dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// The scheduled jobs' process (build/jobs.js, as the production server starts it) is killed
// with SIGKILL (no cleanup, a transaction cut off wherever it was) while it publishes the
// articles whose time has come, then started again, twice at once as two instances would run it.
// Whatever was cut off, each article is published once: one audit row by the scheduler, one
// published revision, and its page on the site (ADR 076).

const ARTICLES = 120;

let connection: IsolatedConnection;
let db: Database;
let ids: number[];
let paths: string[];
const running = new Set<ChildProcess>();

/** Scheduled articles whose time came a second ago, as editors leave them at the desk. */
async function scheduleDueArticles(count: number): Promise<void> {
  const due = new Date(Date.now() - 1000);
  const scheduledAt = new Date(due.getTime() - 60_000);
  ids = [];
  paths = [];
  for (let i = 0; i < count; i++) {
    const made = await createArticle(
      db,
      COMMAND_LINE,
      await newArticleFields(db, {
        title: `Scheduled Story ${i + 1}`,
        dek: "Written ahead, published by the scheduled jobs.",
        summary: "One of the articles the scheduled jobs publish.",
        body: "The first paragraph.\n\nThe second paragraph.",
        slug: `scheduled-story-${i + 1}`,
        published: "2026-03-02",
      }),
      scheduledAt,
    );
    if (!made.ok) throw new Error(JSON.stringify(made));
    const scheduled = await publishArticle(db, COMMAND_LINE, made.article.id, { at: due }, scheduledAt);
    if (!scheduled.ok || scheduled.article.status !== "scheduled") throw new Error(JSON.stringify(scheduled));
    ids.push(made.article.id);
    paths.push(made.article.path);
  }
}

beforeEach(async () => {
  connection = await isolatedConnection("publish-kill");
  db = connect(connection);
  await scheduleDueArticles(ARTICLES);
}, 300_000);

afterEach(async () => {
  for (const child of running) child.kill("SIGKILL");
  await db.destroy();
  await connection.drop();
});

/** A scheduled jobs' process on the test's database, as the production server forks it (its IPC channel keeps it running). */
function jobsProcess(): { child: ChildProcess; exit: Promise<{ code: number | null; signal: string | null; output: string }> } {
  const child = fork("build/jobs.js", [], {
    // Normal priority: this is about kills, and at niceness 19 beside the browser suite the
    // publishing gets about 1.5 % of a core (it once ran out of the test's five minutes).
    env: { ...process.env, NODE_ENV: "production", JOBS_NICENESS: "0", ...databaseEnv(connection) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exit = new Promise<{ code: number | null; signal: string | null; output: string }>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, output });
    }),
  );
  return { child, exit };
}

const published = async () =>
  Number(
    (
      await db
        .selectFrom("article_record")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("id", "in", ids)
        .where("status", "=", "published")
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Polls the database until `reached()` holds, failing if the process ends first. */
async function until(run: ReturnType<typeof jobsProcess>, reached: () => Promise<boolean>): Promise<void> {
  let ended = false;
  void run.exit.then(() => (ended = true));
  while (!(await reached())) {
    if (ended) throw new Error(`the jobs' process ended first:\n${(await run.exit).output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every URL the site's sitemap lists, following its index. */
async function sitemapUrls(siteUrl: string): Promise<string[]> {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const files = locs(await (await fetch(`${siteUrl}/sitemap.xml`)).text());
  return (await Promise.all(files.map(async (file) => locs(await (await fetch(file)).text())))).flat();
}

describe(`the scheduled jobs killed while they publish, and started again (${dialectName})`, () => {
  it("publishes each due article once: one audit row, one published revision, and its page on the site", async () => {
    const first = jobsProcess();
    await until(first, async () => (await published()) >= ARTICLES / 4);
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");
    const cutOff = await published();
    expect(cutOff).toBeLessThan(ARTICLES);

    // Started again, twice at once (two instances): they publish the rest between them.
    const again = [jobsProcess(), jobsProcess()];
    await until(again[0]!, async () => (await published()) === ARTICLES);
    for (const run of again) run.child.kill("SIGTERM");
    for (const run of again) expect((await run.exit).code, (await run.exit).output).toBe(0);

    const records = await db
      .selectFrom("article_record")
      .select(["id", "status", "version", "publish_at"])
      .where("id", "in", ids)
      .execute();
    expect(records.filter((r) => r.status !== "published" || r.publish_at !== null || r.version !== 3)).toEqual([]);

    // One audit row of the publishing per article, the scheduler's.
    const audits = await db
      .selectFrom("desk_audit")
      .select(["subject", "actor"])
      .where("action", "=", "article.publish")
      .where(
        "subject",
        "in",
        ids.map((id) => `article:${id}`),
      )
      .execute();
    expect(audits.map((a) => a.subject).sort()).toEqual(ids.map((id) => `article:${id}`).sort());
    expect(new Set(audits.map((a) => a.actor))).toEqual(new Set([SCHEDULER.label]));

    // One revision per save: made, scheduled, published; the last the only published one.
    const revisions = await db
      .selectFrom("article_revision")
      .select(["article_id", "version", "fields"])
      .where("article_id", "in", ids)
      .execute();
    expect(revisions).toHaveLength(3 * ARTICLES);
    const publishedRevisions = revisions.filter((r) => (JSON.parse(r.fields) as { status: string }).status === "published");
    expect(publishedRevisions.map((r) => `${r.article_id}@${r.version}`).sort()).toEqual(ids.map((id) => `${id}@3`).sort());

    // Indexed for search once each, and on the site: in its sitemap, and their pages answer.
    const documents = await db
      .selectFrom("search_document")
      .select("ref_id")
      .where("kind", "=", "article")
      .where("ref_id", "in", ids)
      .execute();
    expect(documents.map((d) => d.ref_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const server = await startBuiltServer({}, "production", connection);
    try {
      const listed = new Set(await sitemapUrls(server.url));
      expect(paths.filter((path) => !listed.has(server.url + path))).toEqual([]);
      // The pages of those the killed process published last, and the restarted ones first.
      for (const path of paths.slice(cutOff - 5, cutOff + 5)) expect((await fetch(server.url + path)).status, path).toBe(200);
    } finally {
      await server.stop();
    }
    console.log(`${ARTICLES} due articles, the jobs killed with ${cutOff} published: each published once after the restart`);
  }, 300_000);
});
