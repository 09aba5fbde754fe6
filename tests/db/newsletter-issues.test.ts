import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer, MailMessage } from "~/server/adapters/mail";
import { connect, type Database } from "~/server/db/connection";
import { unpublishArticle } from "~/server/desk/articles";
import type { AuditActor } from "~/server/desk/audit";
import { newsletterBySlug } from "~/server/newsletters/catalog";
import { DELIVERY_CLAIM_MS, deliverIssue, sendDueIssues, startIssue } from "~/server/newsletters/delivery";
import { issueMessageId } from "~/server/newsletters/issue";
import {
  audienceNow,
  createIssue,
  deliveryCounts,
  getIssue,
  ISSUE_EMPTY,
  ISSUE_QUEUED_ALREADY,
  ISSUE_SENT,
  ISSUE_WAITING,
  listIssues,
  newslettersAtDesk,
  queueIssue,
  saveIssue,
  unscheduleIssue,
  type DeskIssue,
} from "~/server/newsletters/issues";
import { sendLatestIssue, sendTestIssue } from "~/server/newsletters/send";
import { grantSubscription } from "~/server/subscriptions/entitlements";
import { ISSUE_MESSAGES } from "~/shared/newsletter-issue-fields";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { readerRow } from "~/tests/helpers/reader-records";

// Newsletter issues (ADR 084) on the database the run uses: drafts saved without lost updates,
// queued and scheduled, then sent by two senders at once (two instances' jobs), resumed after a
// sender dies mid-batch, to current subscribers only for a subscriber-only newsletter, a refused
// address counted and the rest sent; the command line's template through the same path. Every
// step is at a given moment.

const EDITOR: AuditActor = { id: null, label: "editor@example.org" };
const OTHER: AuditActor = { id: null, label: "other@example.org" };
const SITE = "https://site.example";
const SECRET = "newsletter-issues-secret-0123456789abcdef";
const NOW = new Date("2031-05-01T09:00:00Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

let connection: IsolatedConnection;
let db: Database;
/** A second connection: another instance's jobs. */
let other: Database;
let counter = 0;

beforeAll(async () => {
  connection = await isolatedConnection("newsletters");
  db = connect(connection);
  other = connect(connection);
});
afterAll(async () => {
  await other?.destroy();
  await db?.destroy();
  await connection?.drop();
});

/** Readers who follow the newsletter, written directly (nobody signs in as them). */
async function followers(slug: string, count: number, label = "reader"): Promise<{ id: string; email: string }[]> {
  const at = NOW.toISOString();
  const readers = Array.from({ length: count }, () => {
    counter += 1;
    return { id: crypto.randomUUID(), email: `${label}.${counter}@newsletters.example`, first: `${label} ${counter}` };
  });
  await db
    .insertInto("app_user")
    .values(readers.map((r) => readerRow({ id: r.id, email: r.email, firstName: r.first, lastName: "Reader" }, at)))
    .execute();
  await db
    .insertInto("follow")
    .values(readers.map((r) => ({ user_id: r.id, kind: "newsletter" as const, target: slug, created_at: at })))
    .execute();
  return readers.map(({ id, email }) => ({ id, email }));
}

/** A mailer that keeps what it sent; it refuses the addresses in `refuse`, and from its `hangAt`th call on never answers (a process killed). */
function recordingMailer(options: { refuse?: string[]; hangAt?: number } = {}) {
  const sent: MailMessage[] = [];
  let calls = 0;
  let reachedHang: () => void = () => {};
  const hung = new Promise<void>((resolve) => (reachedHang = resolve));
  const mailer: Mailer = {
    async send(message) {
      calls += 1;
      if (options.hangAt !== undefined && calls >= options.hangAt) {
        reachedHang();
        return new Promise(() => {});
      }
      if (options.refuse?.includes(String(message.to))) throw new Error(`550 mailbox unavailable: ${String(message.to)}`);
      sent.push(message);
      return { messageId: message.messageId ?? "none" };
    },
  };
  return { mailer, sent, hung };
}

const options = (now: Date, more: { batchSize?: number } = {}) => ({ siteUrl: SITE, secret: SECRET, now: () => now, ...more });
const auditRows = (action: string) => db.selectFrom("desk_audit").selectAll().where("action", "=", action).orderBy("id").execute();

/** A fresh draft of a newsletter, queued now. */
async function queuedNow(slug: string, when = NOW): Promise<DeskIssue> {
  const draft = (await createIssue(db, EDITOR, slug, when))!;
  const queued = await queueIssue(db, EDITOR, draft.id, draft.version, null, when);
  if (!queued.ok) throw new Error(JSON.stringify(queued));
  return queued.issue;
}

describe("a draft", () => {
  it("starts from the command line's template and saves without lost updates, every change audited", async () => {
    const newest = await db
      .selectFrom("article")
      .select(["id", "title"])
      .orderBy("published", "desc")
      .orderBy("id", "desc")
      .limit(4)
      .execute();
    const daily = (await newsletterBySlug(db, "the-daily-brief"))!;
    const draft = (await createIssue(db, EDITOR, "the-daily-brief", NOW))!;
    expect(draft).toMatchObject({
      status: "draft",
      version: 1,
      subject: `The Daily Brief: ${newest[0]!.title}`,
      preheader: "",
      intro: daily.description,
      createdBy: EDITOR.label,
      counts: null,
    });
    expect(draft.articles.map((a) => a.id)).toEqual(newest.slice(0, 3).map((a) => a.id));
    expect(await createIssue(db, EDITOR, "no-such-newsletter", NOW)).toBeUndefined();

    const change = {
      subject: "Monday's brief",
      preheader: "Three reads",
      intro: "Hello [all](/email-newsletters).",
      articleIds: [] as number[],
    };
    const saved = await saveIssue(db, EDITOR, draft.id, 1, { ...change, articleIds: [newest[3]!.id, newest[0]!.id] }, at(1));
    expect(saved).toMatchObject({ ok: true, issue: { version: 2, subject: "Monday's brief", updatedBy: EDITOR.label } });
    if (!saved.ok) return;
    expect(saved.issue.articles.map((a) => a.id)).toEqual([newest[3]!.id, newest[0]!.id]);

    // Another editor, from the page as it was: refused, with who changed it and when; nothing written.
    const stale = await saveIssue(db, OTHER, draft.id, 1, { ...change, subject: "Theirs" }, at(2));
    expect(stale).toMatchObject({ ok: false, reason: "conflict", by: EDITOR.label, at: at(1).toISOString(), current: { version: 2 } });
    expect((await getIssue(db, draft.id))!.subject).toBe("Monday's brief");

    // Bad articles: an unknown id, one twice, an unpublished one newly added, too many.
    const unpublished = newest[2]!.id;
    await unpublishArticle(db, EDITOR, unpublished, at(2));
    for (const [ids, message] of [
      [[999_999_999], "One of the articles no longer exists."],
      [[newest[0]!.id, newest[0]!.id], "An article can be chosen only once."],
      [[unpublished], "is not published"],
      [Array.from({ length: 21 }, (_, i) => i + 1), ISSUE_MESSAGES.articles],
    ] as [number[], string][]) {
      const refused = await saveIssue(db, EDITOR, draft.id, 2, { ...change, articleIds: ids }, at(3));
      expect(refused, message).toMatchObject({ ok: false, reason: "invalid" });
      expect(JSON.stringify(refused), message).toContain(message);
    }
    expect(await saveIssue(db, EDITOR, 999_999, 1, change, at(3))).toEqual({ ok: false, reason: "missing" });

    const [created] = (await auditRows("newsletter-issue.create")).filter(
      (r) => r.subject === `newsletter-issue:the-daily-brief#${draft.id}`,
    );
    expect(created).toMatchObject({ actor: EDITOR.label });
    const saves = (await auditRows("newsletter-issue.save")).filter((r) => r.subject === `newsletter-issue:the-daily-brief#${draft.id}`);
    expect(saves).toHaveLength(1);
    expect(JSON.parse(saves[0]!.after!)).toMatchObject({ version: 2, subject: "Monday's brief", preheader: "Three reads" });
    expect(JSON.parse(saves[0]!.before!)).not.toHaveProperty("newsletter");
  });

  it("is queued or scheduled once, is not changed while it waits, and comes off the schedule back to a draft", async () => {
    const draft = (await createIssue(db, EDITOR, "research-roundup", NOW))!;
    const staleVersion = await queueIssue(db, EDITOR, draft.id, 7, at(60), NOW);
    expect(staleVersion).toMatchObject({ ok: false, reason: "conflict" });
    const scheduled = await queueIssue(db, EDITOR, draft.id, 1, at(60), NOW);
    expect(scheduled).toMatchObject({ ok: true, issue: { status: "queued", sendAt: at(60).toISOString(), queuedBy: EDITOR.label } });
    expect(await queueIssue(db, EDITOR, draft.id, 2, null, NOW)).toMatchObject({ reason: "state", message: ISSUE_QUEUED_ALREADY });
    expect(await saveIssue(db, EDITOR, draft.id, 2, { subject: "x", preheader: "", intro: "", articleIds: [] }, NOW)).toMatchObject({
      reason: "state",
      message: ISSUE_WAITING,
    });
    expect((await sendDueIssues(db, recordingMailer().mailer, options(at(59)))).started).not.toContain(draft.id);

    const off = await unscheduleIssue(db, OTHER, draft.id, at(30));
    expect(off).toMatchObject({ ok: true, issue: { status: "draft", sendAt: null, version: 3 } });
    expect(await unscheduleIssue(db, OTHER, draft.id, at(30))).toMatchObject({ ok: false, reason: "state" });
    expect((await auditRows("newsletter-issue.schedule")).at(-1)).toMatchObject({ actor: EDITOR.label });
    expect((await auditRows("newsletter-issue.unschedule")).at(-1)).toMatchObject({ actor: OTHER.label });

    // Nothing to send: refused.
    const emptied = await saveIssue(db, EDITOR, draft.id, 3, { subject: "Empty", preheader: "", intro: "", articleIds: [] }, at(31));
    expect(emptied.ok).toBe(true);
    expect(await queueIssue(db, EDITOR, draft.id, 4, null, at(32))).toMatchObject({ reason: "state", message: ISSUE_EMPTY });
  });
});

describe("sending", () => {
  it("mails every follower once with two senders at once, as composed, and an issue sent is never changed or sent again", async () => {
    const readers = await followers("the-chart-room", 30, "chart");
    const bystander = (await followers("leading-people", 1, "bystander"))[0]!;
    const issue = await queuedNow("the-chart-room");
    expect(await audienceNow(db, issue.newsletter, NOW)).toEqual({ followers: 30, recipients: 30 });
    const [a, b] = [recordingMailer(), recordingMailer()];
    const runs = await Promise.all([
      sendDueIssues(db, a.mailer, options(NOW, { batchSize: 4 })),
      sendDueIssues(other, b.mailer, options(NOW, { batchSize: 4 })),
    ]);
    expect(runs.flatMap((r) => r.started)).toEqual([issue.id]);
    const all = [...a.sent, ...b.sent];
    expect(all.map((m) => m.to).sort()).toEqual(readers.map((r) => r.email).sort());
    expect(all.map((m) => m.to)).not.toContain(bystander.email);
    expect(runs[0]!.sent + runs[1]!.sent).toBe(30);

    const mail = all.find((m) => m.to === readers[0]!.email)!;
    expect(mail.subject).toBe(issue.subject);
    expect(mail.messageId).toBe(issueMessageId(issue.id, readers[0]!.id, SITE));
    expect(mail.headers?.["List-Unsubscribe"]).toMatch(/^<https:\/\/site\.example\/newsletters\/unsubscribe\?token=/);
    expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain(`Hello chart `);
    for (const article of issue.articles) expect(mail.text).toContain(`${SITE}${article.path}`);

    const sent = (await getIssue(db, issue.id))!;
    expect(sent).toMatchObject({
      status: "sent",
      sentAt: NOW.toISOString(),
      counts: { recipients: 30, sent: 30, failed: 0, skipped: 0, pending: 0 },
    });
    // Again: nothing more goes, and the desk cannot send or change it.
    const again = recordingMailer();
    expect((await sendDueIssues(db, again.mailer, options(at(5)))).sent).toBe(0);
    expect(again.sent).toHaveLength(0);
    expect(await queueIssue(db, EDITOR, issue.id, sent.version, null, at(5))).toMatchObject({ reason: "state", message: ISSUE_SENT });
    expect(
      await saveIssue(db, EDITOR, issue.id, sent.version, { subject: "x", preheader: "", intro: "x", articleIds: [] }, at(5)),
    ).toMatchObject({
      reason: "state",
      message: ISSUE_SENT,
    });
    expect(await unscheduleIssue(db, EDITOR, issue.id, at(5))).toMatchObject({ reason: "state", message: ISSUE_SENT });

    const listed = await listIssues(db, 1, 50);
    expect(listed.items.find((i) => i.id === issue.id)).toMatchObject({ status: "sent", queuedBy: EDITOR.label, counts: { sent: 30 } });
    expect((await newslettersAtDesk(db)).find((n) => n.slug === "the-chart-room")).toMatchObject({
      followers: 30,
      sentIssues: 1,
      lastSentAt: NOW.toISOString(),
    });
  });

  it("resumes after a sender dies mid-batch: its claimed readers get the issue once its claim lapses, each once", async () => {
    const readers = await followers("strategy-dispatch", 12, "strategy");
    const issue = await queuedNow("strategy-dispatch", at(10));
    const killed = recordingMailer({ hangAt: 4 });
    const dying = connect(connection);
    try {
      // Claims 10, sends 3, and never comes back from the 4th.
      void sendDueIssues(dying, killed.mailer, options(at(10), { batchSize: 10 }));
      await killed.hung;
      expect(killed.sent).toHaveLength(3);

      // Another sender at once takes only what no claim holds.
      const meanwhile = recordingMailer();
      await sendDueIssues(other, meanwhile.mailer, options(at(11), { batchSize: 10 }));
      expect(meanwhile.sent).toHaveLength(2);
      expect((await getIssue(db, issue.id))!).toMatchObject({ status: "sending", counts: { sent: 5, pending: 7 } });

      // Once the dead sender's claim lapses, the rest go.
      const later = recordingMailer();
      const lapsed = new Date(at(10).getTime() + DELIVERY_CLAIM_MS + 1000);
      await sendDueIssues(db, later.mailer, options(lapsed, { batchSize: 10 }));
      expect(later.sent).toHaveLength(7);
      const everyone = [...killed.sent, ...meanwhile.sent, ...later.sent].map((m) => m.to);
      expect(everyone.sort()).toEqual(readers.map((r) => r.email).sort());
      expect((await getIssue(db, issue.id))!).toMatchObject({ status: "sent", counts: { recipients: 12, sent: 12, pending: 0 } });
    } finally {
      await dying.destroy();
    }
  });

  it("sends a subscriber-only newsletter to those who subscribe when their mail goes, and skips readers who stopped following", async () => {
    const [current, lapsing, never, leaving] = await followers("the-insider", 4, "insider");
    for (const [reader, end] of [
      [current!, at(24 * 60)],
      [lapsing!, at(90)],
      [leaving!, at(24 * 60)],
    ] as const)
      await grantSubscription(db, {
        userId: reader.id,
        roleCode: "MRSUB_GOOD",
        source: "web",
        reference: `insider-${reader.id}`,
        accessStart: at(-60),
        accessEnd: end,
      });
    const newsletter = (await newsletterBySlug(db, "the-insider"))!;
    expect(await audienceNow(db, newsletter, NOW)).toEqual({ followers: 4, recipients: 3 });
    const draft = (await createIssue(db, EDITOR, "the-insider", NOW))!;
    expect((await queueIssue(db, EDITOR, draft.id, 1, at(60), NOW)).ok).toBe(true);
    expect(await startIssue(db, draft.id, at(59))).toBe(false);
    expect(await startIssue(db, draft.id, at(120))).toBe(true);
    expect(await startIssue(other, draft.id, at(120))).toBe(false);
    // Listed when it started; one leaves before their mail's turn.
    await db.deleteFrom("follow").where("user_id", "=", leaving!.id).where("target", "=", "the-insider").execute();
    const mail = recordingMailer();
    const tally = await deliverIssue(db, mail.mailer, draft.id, options(at(120)));
    expect(tally).toEqual({ sent: 1, failed: 0, skipped: 3 });
    expect(mail.sent.map((m) => m.to)).toEqual([current!.email]);
    expect((await getIssue(db, draft.id))!.counts).toEqual({ recipients: 4, sent: 1, failed: 0, skipped: 3, pending: 0 });
    expect(never).toBeDefined();
  });

  it("counts a refused address as failed, keeps why, and sends the rest", async () => {
    const readers = await followers("the-afternoon-tip", 5, "tip");
    const issue = await queuedNow("the-afternoon-tip", at(200));
    const mail = recordingMailer({ refuse: [readers[2]!.email] });
    const run = await sendDueIssues(db, mail.mailer, options(at(200), { batchSize: 2 }));
    expect(run).toMatchObject({ sent: 4, failed: 1, skipped: 0 });
    expect(mail.sent.map((m) => m.to).sort()).toEqual(
      readers
        .filter((_, i) => i !== 2)
        .map((r) => r.email)
        .sort(),
    );
    expect((await getIssue(db, issue.id))!).toMatchObject({ status: "sent", counts: { sent: 4, failed: 1 } });
    const failed = await db
      .selectFrom("newsletter_delivery")
      .select(["user_id", "error"])
      .where("issue_id", "=", issue.id)
      .where("state", "=", "failed")
      .execute();
    expect(failed).toEqual([{ user_id: readers[2]!.id, error: expect.stringContaining("550 mailbox unavailable") }]);
  });
});

describe("outside the jobs", () => {
  it("sends the command line's template through the same path, listed under the command line", async () => {
    const readers = await followers("leading-people", 3, "people");
    const mail = recordingMailer();
    const result = await sendLatestIssue(db, mail.mailer, "leading-people", { siteUrl: SITE, secret: SECRET });
    // The bystander of the first test follows it too.
    expect(result).toEqual({ sent: 4, failed: 0 });
    expect(mail.sent.map((m) => m.to)).toEqual(expect.arrayContaining(readers.map((r) => r.email)));
    expect(await sendLatestIssue(db, mail.mailer, "no-such-letter", { siteUrl: SITE, secret: SECRET })).toBeUndefined();
    const [latest] = (await listIssues(db, 1, 1)).items;
    expect(latest).toMatchObject({
      newsletter: { slug: "leading-people" },
      status: "sent",
      createdBy: "command line",
      queuedBy: "command line",
    });
    expect(await deliveryCounts(db, latest!.id)).toMatchObject({ sent: 4, pending: 0 });
    expect((await auditRows("newsletter-issue.send")).at(-1)).toMatchObject({ actor: "command line" });
  });

  it("sends a test of a draft to the staff member alone, marked as a test, and audits it", async () => {
    const draft = (await createIssue(db, EDITOR, "the-daily-brief", NOW))!;
    const mail = recordingMailer();
    await sendTestIssue(
      db,
      mail.mailer,
      EDITOR,
      draft,
      { userId: "staff-1", email: "editor@example.org", firstName: "Ed" },
      { siteUrl: SITE, secret: SECRET },
      NOW,
    );
    expect(mail.sent).toHaveLength(1);
    expect(mail.sent[0]).toMatchObject({ to: "editor@example.org", subject: `[Test] ${draft.subject}` });
    expect(mail.sent[0]!.text).toContain("Hello Ed,");
    expect((await getIssue(db, draft.id))!.status).toBe("draft");
    expect((await auditRows("newsletter-issue.test")).at(-1)).toMatchObject({
      actor: EDITOR.label,
      after: expect.stringContaining("editor@example.org"),
    });
  });
});
