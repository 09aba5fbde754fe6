import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMailer } from "~/server/adapters/mail";
import { connect, type Database } from "~/server/db/connection";
import { DELIVERY_CLAIM_MS, sendDueIssues } from "~/server/newsletters/delivery";
import { databaseEnv, dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { readerRow } from "~/tests/helpers/reader-records";

// `npm run newsletter:send`, which sends an issue as the desk's are sent (ADR 084), is killed with
// SIGKILL (no cleanup, a statement cut off wherever it was) while it mails; then two instances'
// jobs, once the killed sender's claim has lapsed, send the rest at the same time. Every follower
// gets the issue, and once: only the copy the killed process was sending when it died may go twice.

const FOLLOWERS = 400;
const SLUG = "the-chart-room";
const SITE_URL = "http://127.0.0.1:9";
const SECRET = "newsletter-kill-session-secret-0123456789abcdef";

let connection: IsolatedConnection;
let db: Database;
let emails: string[];
const running = new Set<ChildProcess>();

beforeEach(async () => {
  connection = await isolatedConnection("newsletter-kill");
  db = connect(connection);
  const at = new Date().toISOString();
  const readers = Array.from({ length: FOLLOWERS }, (_, n) => ({ id: crypto.randomUUID(), email: `chart.${n}@newsletter-kill.example` }));
  for (let i = 0; i < readers.length; i += 200) {
    const chunk = readers.slice(i, i + 200);
    await db
      .insertInto("app_user")
      .values(chunk.map((r) => readerRow({ id: r.id, email: r.email, firstName: "Chart", lastName: "Reader" }, at)))
      .execute();
    await db
      .insertInto("follow")
      .values(chunk.map((r) => ({ user_id: r.id, kind: "newsletter" as const, target: SLUG, created_at: at })))
      .execute();
  }
  emails = readers.map((r) => r.email);
});

afterEach(async () => {
  for (const child of running) child.kill("SIGKILL");
  await db.destroy();
  await connection.drop();
});

const outbox = () => path.join(connection.dataDir, "mail");

/** The addressee of every newsletter issue in the outbox, one entry per mail. */
function mailedTo(): string[] {
  if (!fs.existsSync(outbox())) return [];
  return fs.readdirSync(outbox()).flatMap((file) => {
    const text = fs.readFileSync(path.join(outbox(), file), "utf8");
    // A long header is folded onto the next line.
    if (!/^Message-ID:\s+<newsletter-issue-/im.test(text)) return [];
    const to = /^To: (\S+)\r?$/m.exec(text);
    return to ? [to[1]!] : [];
  });
}

const delivered = async () =>
  Number(
    (
      await db
        .selectFrom("newsletter_delivery")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("state", "=", "sent")
        .executeTakeFirstOrThrow()
    ).n,
  );

/** `npm run newsletter:send -- the-chart-room`, in a process of its own, mailing to the outbox. */
function cliRun(): { child: ChildProcess; exit: Promise<{ code: number | null; signal: string | null; output: string }> } {
  // tsx's loader in this process, not its CLI: the CLI runs the script in a child of its own, which
  // a SIGKILL to the CLI does not reach.
  const { SMTP_URL: _smtp, ...environment } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "server/newsletters/cli.ts", SLUG], {
    env: { ...environment, ...databaseEnv(connection), SITE_URL, SESSION_SECRET: SECRET },
    stdio: ["ignore", "pipe", "pipe"],
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

describe(`a newsletter send killed mid-batch and resumed by two instances' jobs (${dialectName})`, () => {
  it("mails every follower, each once but for the copy in flight at the kill, and marks the issue sent", async () => {
    const run = cliRun();
    let ended = false;
    void run.exit.then(() => (ended = true));
    while ((await delivered()) < FOLLOWERS / 4) {
      if (ended) throw new Error(`the send ended before it could be killed:\n${(await run.exit).output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    run.child.kill("SIGKILL");
    expect((await run.exit).signal).toBe("SIGKILL");
    const before = await delivered();
    expect(before).toBeLessThan(FOLLOWERS);
    const issue = await db.selectFrom("newsletter_issue").select(["id", "status"]).executeTakeFirstOrThrow();
    expect(issue.status).toBe("sending");

    // Ten minutes on (the killed sender's claim lapsed), two instances' jobs at once.
    const later = new Date(Date.now() + DELIVERY_CLAIM_MS + 60_000);
    const mailer = createMailer({ from: "Meridian Review <no-reply@meridian-review.example>", outbox: outbox() });
    const other = connect(connection);
    try {
      const options = { siteUrl: SITE_URL, secret: SECRET, now: () => later };
      await Promise.all([sendDueIssues(db, mailer, options), sendDueIssues(other, mailer, options)]);
    } finally {
      await other.destroy();
    }

    const done = await db.selectFrom("newsletter_issue").selectAll().where("id", "=", issue.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: "sent", recipient_count: FOLLOWERS, sent_count: FOLLOWERS, failed_count: 0, skipped_count: 0 });
    const mailed = mailedTo();
    expect(emails.filter((email) => !mailed.includes(email))).toEqual([]);
    const twice = mailed.length - new Set(mailed).size;
    expect(twice).toBeLessThanOrEqual(1);
    console.log(`${FOLLOWERS} followers, SIGKILL after ${before} sent: ${mailed.length} mails in all, ${twice} sent twice`);
  }, 600_000);
});
