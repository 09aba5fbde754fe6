import crypto from "node:crypto";
import * as cheerio from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { ISSUE_QUEUED_ALREADY, ISSUE_SENT } from "~/server/newsletters/issues";
import { grantSubscription } from "~/server/subscriptions/entitlements";
import { deskPeople } from "~/tests/helpers/desk-staff";
import { Reader } from "~/tests/helpers/reader";
import { startBuiltServer, type RunningServer } from "~/tests/helpers/server";
import { parseMessage, plainText, startLoopbackSmtp, type LoopbackSmtp } from "~/tests/helpers/smtp";
import { isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";
import { readerRow } from "~/tests/helpers/reader-records";

// Newsletters at the desk (ADR 084) through the production build, its scheduled jobs mailing a
// loopback SMTP server: an editor composes an issue with plain form posts (no JS), previews it,
// sends a test to themselves, confirms the send on its own page, and the jobs mail each follower
// once while the issue's page shows the progress; a sent issue is neither changed nor sent again.

let server: RunningServer;
let smtp: LoopbackSmtp;
let connection: IsolatedConnection;
let db: Database;
let editor: { reader: Reader; email: string };
let counter = 0;

beforeAll(async () => {
  connection = await isolatedConnection("desk-newsletters");
  smtp = await startLoopbackSmtp();
  server = await startBuiltServer({ RATE_LIMIT_PER_ACCOUNT: "1000", SMTP_URL: smtp.url, JOBS_PROCESSES: "1" }, "production", connection);
  db = connect(connection);
  editor = await deskPeople(server.url, db).staffMember(["editor"], "Nell");
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  await connection?.drop();
  await smtp?.stop();
});

const form = (entries: [string, string | number][]) => new URLSearchParams(entries.map(([k, v]) => [k, String(v)]));

/** Readers who follow a newsletter, written directly (none of them signs in). */
async function followers(slug: string, count: number): Promise<{ id: string; email: string; first: string }[]> {
  const now = Date.now();
  const at = new Date(now).toISOString();
  const readers = Array.from({ length: count }, () => {
    counter += 1;
    return { id: crypto.randomUUID(), email: `follower.${counter}.${process.pid}@newsletters.example`, first: `Follower${counter}` };
  });
  await db
    .insertInto("app_user")
    .values(readers.map((r) => readerRow({ id: r.id, email: r.email, firstName: r.first, lastName: "Reader" }, at)))
    .execute();
  await db
    .insertInto("follow")
    // The first followed first: the preview writes to the longest follower.
    .values(
      readers.map((r, i) => ({ user_id: r.id, kind: "newsletter" as const, target: slug, created_at: new Date(now + i).toISOString() })),
    )
    .execute();
  return readers;
}

/** Starts an issue of a newsletter at the desk; answers its page's address. */
async function compose(slug: string): Promise<string> {
  const res = await editor.reader.request("/desk/newsletters", { form: { intent: "compose", newsletter: slug } });
  expect(res.status).toBe(303);
  const location = res.headers.get("location")!;
  expect(location).toMatch(/^\/desk\/newsletters\/issues\/\d+$/);
  return location;
}

const idOf = (path: string) => Number(path.split("/").at(-1));
const issueRow = (path: string) => db.selectFrom("newsletter_issue").selectAll().where("id", "=", idOf(path)).executeTakeFirstOrThrow();
const articleIds = async (path: string) =>
  (
    await db.selectFrom("newsletter_issue_article").select("article_id").where("issue_id", "=", idOf(path)).orderBy("position").execute()
  ).map((r) => r.article_id);

/** The draft's fields as its form posts them (`fields` replaces any of them), with its articles and more. */
const draftForm = (version: number, ids: number[], more: [string, string | number][] = [], fields: Record<string, string> = {}) =>
  form([
    ...Object.entries({
      subject: "This week in charts",
      preheader: "Three charts worth a look",
      intro: "Hello from the data desk.\r\n\r\nRead [our method](/email-newsletters) first.",
      ...fields,
    }),
    ["version", version],
    ...ids.map((id): [string, number] => ["item", id]),
    ...more,
  ]);

const mailsTo = (email: string, subject: RegExp) =>
  smtp.received.filter((m) => m.rcptTo.includes(email) && subject.test(parseMessage(m.raw).header("subject") ?? ""));

describe("composing an issue at the desk", () => {
  it("starts a draft from the template, edits its fields and articles with plain posts, refuses bad input and shows both versions on a conflict", async () => {
    await followers("the-chart-room", 2);
    const list = await editor.reader.page("/desk/newsletters");
    expect(list("h1").text()).toBe("Newsletters");
    const chartRow = list("tbody tr").filter((_, tr) => list(tr).text().includes("The Chart Room"));
    expect(chartRow.find("td[data-label=Followers]").text()).toBe("2");
    expect(chartRow.find("button").text()).toContain("Compose");

    const path = await compose("the-chart-room");
    const draft = await editor.reader.page(path);
    expect(draft("main [role=status]").first().text()).toContain("A new draft");
    expect(draft("input[name=subject]").val()).toMatch(/^The Chart Room: /);
    expect(draft("textarea[name=intro]").text()).toContain("Each week our data editors explain one revealing chart");
    expect(draft("input[type=hidden][name=item]")).toHaveLength(3);
    const [a, b, c] = await articleIds(path);
    const extra = await db
      .selectFrom("article")
      .select(["id", "slug", "year", "month"])
      .where("id", "not in", [a!, b!, c!])
      .orderBy("published")
      .executeTakeFirstOrThrow();
    const extraPath = `/${extra.year}/${String(extra.month).padStart(2, "0")}/${extra.slug}`;

    // Add by address, then move it up, then remove the first: each a plain post, each a new version.
    const steps: [number, number[], [string, string | number][]][] = [
      [
        1,
        [a!, b!, c!],
        [
          ["add", `${server.url}${extraPath}`],
          ["intent", "add"],
        ],
      ],
      [2, [a!, b!, c!, extra.id], [["intent", "up-3"]]],
      [3, [a!, b!, extra.id, c!], [["intent", "remove-0"]]],
    ];
    for (const [version, ids, more] of steps) {
      const res = await editor.reader.request(path, { form: draftForm(version, ids, more) });
      expect(res.status, JSON.stringify(more)).toBe(303);
      expect(res.headers.get("location")).toBe(path);
    }
    expect(await articleIds(path)).toEqual([b!, extra.id, c!]);
    expect(await issueRow(path)).toMatchObject({ version: 4, subject: "This week in charts", preheader: "Three charts worth a look" });
    const saved = await editor.reader.page(path);
    expect(saved("main [role=status]").first().text()).toBe("Saved.");
    expect(saved("main ol li").first().text()).toContain("Article 1");

    for (const [fields, status, message] of [
      [draftForm(4, [b!], [["intent", "save"]], { subject: "" }), 400, "Enter a subject of up to 200 characters, on one line."],
      [
        form([
          ["subject", "Two\r\nlines"],
          ["version", 4],
          ["intent", "save"],
        ]),
        400,
        "on one line",
      ],
      [
        draftForm(
          4,
          [b!],
          [
            ["add", "no-such-article-at-all"],
            ["intent", "add"],
          ],
        ),
        400,
        "No article has the address or slug",
      ],
      [
        draftForm(
          4,
          [extra.id],
          [
            ["add", extraPath],
            ["intent", "add"],
          ],
        ),
        400,
        "is already in the issue",
      ],
      [draftForm(4, [b!], [["intent", "sideways-1"]]), 400, "not one this page has"],
      [draftForm(4, [999_999_999], [["intent", "save"]]), 400, "One of the articles no longer exists."],
      [
        form([
          ["subject", "x"],
          ["version", "x"],
          ["intent", "save"],
        ]),
        400,
        "out of date",
      ],
    ] as [URLSearchParams, number, string][]) {
      const res = await editor.reader.request(path, { form: fields });
      expect(res.status, message).toBe(status);
      const html = await res.text();
      expect(cheerio.load(html)("title").text(), message).toMatch(/^Error: /);
      expect(html, message).toContain(message);
    }
    expect((await issueRow(path)).version).toBe(4);

    // Saved from a page read at version 3: nothing written, the message, and both versions.
    const stale = await editor.reader.request(path, {
      form: draftForm(3, [c!], [["intent", "save"]], { subject: "My stale subject" }),
    });
    expect(stale.status).toBe(409);
    const conflict = cheerio.load(await stale.text());
    expect(conflict("main [role=alert]").first().text()).toMatch(
      new RegExp(
        `^This issue was changed by ${editor.email.replace(/[.+]/g, "\\$&")} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC since you opened it\\.`,
      ),
    );
    expect(conflict("input[name=subject]").val()).toBe("This week in charts");
    expect(conflict("input[name=version]").attr("value")).toBe("4");
    expect(conflict("#yours-heading").text()).toBe("Your version (not saved)");
    expect(conflict("section[aria-labelledby=yours-heading]").text()).toContain("My stale subject");
    expect((await issueRow(path)).subject).toBe("This week in charts");

    for (const bad of [
      "/desk/newsletters/issues/999999",
      "/desk/newsletters/issues/abc",
      "/desk/newsletters/issues/0/send",
      "/desk/newsletters/issues/999999/preview",
    ])
      expect((await editor.reader.request(bad)).status, bad).toBe(404);
    expect((await editor.reader.request("/desk/newsletters", { form: { intent: "compose", newsletter: "no-such-letter" } })).status).toBe(
      404,
    );
    expect((await editor.reader.request("/desk/newsletters", { form: { intent: "other" } })).status).toBe(404);
  });
});

describe("previewing, testing and sending", () => {
  it("previews the mail for a follower, sends a test to the editor alone, then sends to the followers through the jobs once, with its progress", async () => {
    const readers = await followers("research-roundup", 3);
    const path = await compose("research-roundup");
    const row = await issueRow(path);
    const subject = new RegExp(`^${row.subject.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

    const preview = await editor.reader.page(`${path}/preview`);
    expect(preview("h1").text()).toBe(`Preview: ${row.subject}`);
    expect(preview("main").text()).toContain(`As ${readers[0]!.first} (${readers[0]!.email}), who has followed Research Roundup longest`);
    expect(preview("pre").text()).toContain(`Hello ${readers[0]!.first},`);
    expect(preview("pre").text()).toContain("A monthly digest of new management research");
    const frame = cheerio.load(preview("iframe").attr("srcdoc")!);
    expect(preview("iframe").attr("sandbox")).toBe("");
    expect(frame("h1").text()).toBe("Research Roundup");
    expect(frame("body").text()).toContain(`Hello ${readers[0]!.first},`);
    expect(frame("script")).toHaveLength(0);

    const test = await editor.reader.request(path, { form: { intent: "test" } });
    expect(test.status).toBe(303);
    const testMail = await smtp.waitFor(
      (m) => m.rcptTo.includes(editor.email) && /^\[Test\] /.test(parseMessage(m.raw).header("subject") ?? ""),
    );
    expect(plainText(testMail.raw)).toContain("Hello Nell,");
    expect((await editor.reader.page(path))("main [role=status]").first().text()).toBe(`A test went to ${editor.email}.`);
    for (const reader of readers) expect(mailsTo(reader.email, /./)).toHaveLength(0);

    // The confirmation: its own page, with the count.
    const confirm = await editor.reader.page(`${path}/send`);
    expect(confirm("h1").text()).toBe("Send this issue?");
    expect(confirm("main").text()).toContain("It goes to 3 readers");
    expect(confirm("main button").first().text()).toBe("Send now to 3 readers");
    const version = (await issueRow(path)).version;
    const past = await editor.reader.request(`${path}/send`, {
      form: { intent: "schedule", version: String(version), sendAt: "2020-01-01T09:00" },
    });
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("Enter a date and time in the future, in UTC");
    const stale = await editor.reader.request(`${path}/send`, { form: { intent: "send", version: String(version - 1 || 99) } });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("since you opened it");
    const foreign = await editor.reader.request(`${path}/send`, {
      form: { intent: "send", version: String(version) },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    expect((await issueRow(path)).status).toBe("draft");

    const sent = await editor.reader.request(`${path}/send`, { form: { intent: "send", version: String(version) } });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(path);
    const queued = await editor.reader.page(path);
    expect(queued("main [role=status]").first().text()).toContain("Queued: the jobs start sending it within seconds.");
    expect(queued("input[name=subject]")).toHaveLength(0);
    // Unless the jobs were quicker than this page, it says it refreshes itself, and how to refresh it.
    if (!/^Sent /.test(queued("aside [role=status]").text())) {
      expect(queued("meta[http-equiv=refresh]").attr("content")).toBe("5");
      expect(queued(`aside a[href='${path}']`).text()).toBe("Refresh now");
    }

    // The jobs' process sends it within a tick or two; meanwhile the page refreshes itself.
    await expect.poll(async () => (await issueRow(path)).status, { timeout: 60_000, interval: 500 }).toBe("sent");
    for (const reader of readers) {
      const mails = mailsTo(reader.email, subject);
      expect(mails, reader.email).toHaveLength(1);
      const mail = parseMessage(mails[0]!.raw);
      expect(mail.header("list-unsubscribe")).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/newsletters\/unsubscribe\?token=/);
      expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
      expect(plainText(mails[0]!.raw)).toContain(`Hello ${reader.first},`);
    }
    const done = await editor.reader.page(path);
    expect(done("meta[http-equiv=refresh]")).toHaveLength(0);
    expect(done("aside [role=status]").text()).toMatch(/^Sent \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC to 3 readers, 0 failed\.$/);
    const listed = await editor.reader.page("/desk/newsletters");
    expect(
      listed("tbody tr")
        .filter((_, tr) => listed(tr).text().includes(row.subject))
        .text(),
    ).toContain(`by ${editor.email}`);

    // Sent: neither sent again nor changed.
    const again = await editor.reader.request(`${path}/send`, { form: { intent: "send", version: String(version + 1) } });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(ISSUE_SENT);
    expect((await editor.reader.page(`${path}/send`))("main [role=alert]").text()).toBe(ISSUE_SENT);
    const edit = await editor.reader.request(path, { form: draftForm(version + 1, [], [["intent", "save"]]) });
    expect(edit.status).toBe(409);
    expect(await edit.text()).toContain(ISSUE_SENT);
    for (const reader of readers) expect(mailsTo(reader.email, subject)).toHaveLength(1);

    const audit = await db
      .selectFrom("desk_audit")
      .select(["action", "actor"])
      .where("subject", "like", `newsletter-issue:research-roundup#${idOf(path)}`)
      .orderBy("id")
      .execute();
    expect(audit.map((r) => `${r.actor} ${r.action}`)).toEqual([
      `${editor.email} newsletter-issue.create`,
      `${editor.email} newsletter-issue.test`,
      `${editor.email} newsletter-issue.send`,
    ]);
  });

  it("shows a subscriber-only newsletter's count of subscribers, and schedules a send that can be taken off the schedule", async () => {
    const [subscriber] = await followers("the-insider", 2);
    await grantSubscription(db, {
      userId: subscriber!.id,
      roleCode: "MRSUB_GOOD",
      source: "web",
      reference: `desk-newsletters-${subscriber!.id}`,
      accessStart: new Date(Date.now() - 86_400_000),
      accessEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const path = await compose("the-insider");
    const confirm = await editor.reader.page(`${path}/send`);
    expect(confirm("main").text()).toContain("2 readers follow The Insider, a newsletter for subscribers only: it goes to 1 reader");

    const version = (await issueRow(path)).version;
    const scheduled = await editor.reader.request(`${path}/send`, {
      form: { intent: "schedule", version: String(version), sendAt: "2099-01-01T09:00" },
    });
    expect(scheduled.status).toBe(303);
    const page = await editor.reader.page(path);
    expect(page("main [role=status]").first().text()).toBe("Scheduled for 2099-01-01 09:00 UTC: the jobs send it then.");
    expect(page("aside [role=status]").text()).toBe("Scheduled for 2099-01-01 09:00 UTC.");
    expect(page("meta[http-equiv=refresh]")).toHaveLength(0);
    const twice = await editor.reader.request(`${path}/send`, { form: { intent: "send", version: String(version + 1) } });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain(ISSUE_QUEUED_ALREADY);

    const off = await editor.reader.request(path, { form: { intent: "unschedule" } });
    expect(off.status).toBe(303);
    expect(await issueRow(path)).toMatchObject({ status: "draft", send_at: null });
    expect((await editor.reader.request(path, { form: { intent: "unschedule" } })).status).toBe(409);
    const audit = await db
      .selectFrom("desk_audit")
      .select("action")
      .where("subject", "=", `newsletter-issue:the-insider#${idOf(path)}`)
      .orderBy("id")
      .execute();
    expect(audit.map((r) => r.action)).toEqual(["newsletter-issue.create", "newsletter-issue.schedule", "newsletter-issue.unschedule"]);
  });
});

describe("who reaches the newsletter pages", () => {
  it("gives guests and readers 404, the service role 403, and shows Newsletters in the desk's bar", async () => {
    const path = await compose("the-afternoon-tip");
    const pages = ["/desk/newsletters", path, `${path}/preview`, `${path}/send`];
    const { reader } = await deskPeople(server.url, db).signedInReader("plain");
    const service = (await deskPeople(server.url, db).staffMember(["service"])).reader;
    for (const page of pages) {
      for (const asker of [new Reader(server.url), reader]) {
        expect((await asker.request(page)).status, page).toBe(404);
        expect((await asker.request(page, { form: { intent: "send", version: "1" } })).status, page).toBe(404);
      }
      expect((await service.request(page)).status, page).toBe(403);
      expect((await service.request(page, { form: { intent: "send", version: "1" } })).status, page).toBe(403);
    }
    expect((await issueRow(path)).status).toBe("draft");
    const nav = await editor.reader.page("/desk");
    expect(
      nav("nav[aria-label=Desk] a")
        .map((_, el) => nav(el).text())
        .get(),
    ).toContain("Newsletters");
  });
});
