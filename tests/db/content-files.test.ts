import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db";
import { connect, type Database } from "~/server/db/connection";
import { runContentCommand } from "~/server/content-files/command";
import { exportContent, ExportRefused } from "~/server/content-files/export";
import {
  applyImport,
  describeSummary,
  importContent,
  readImport,
  type ImportResult,
  type ImportSummary,
} from "~/server/content-files/import";
import { COMMAND_LINE, type AuditActor } from "~/server/desk/audit";
import { getDeskArticle, saveArticle } from "~/server/desk/articles";
import { updateTopic } from "~/server/desk/catalogue/topics";
import { readArticleFiles, readAuthorFiles, readTopicsFile } from "~/server/seed/content-source";
import { databaseEnv, isolatedConnection, seededTestDatabase, type IsolatedConnection } from "~/tests/helpers/test-db";

// Content as files (issue 38, ADR 080): the export of the seeded database is the seed content,
// and importing a folder applies exactly what differs, through the editorial domain. Each test
// exports the database as it is then into a folder of its own and changes that.

const NOW = new Date("2026-06-01T09:00:00Z");
const SEED_DIR = path.resolve("content");
let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "content-files-"));
  folders.push(folder);
  return folder;
}

async function exported(): Promise<string> {
  const dir = tempFolder();
  await exportContent(db, dir);
  return dir;
}

async function imported(dir: string, now = NOW): Promise<ImportSummary> {
  const result = await importContent(db, COMMAND_LINE, dir, now);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.summary;
}

/** Rows that every change leaves behind, counted. */
async function footprint() {
  const count = async (table: "desk_audit" | "article_revision" | "article_record" | "author" | "topic") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    audit: await count("desk_audit"),
    revisions: await count("article_revision"),
    articles: await count("article_record"),
    authors: await count("author"),
    topics: await count("topic"),
  };
}

const articleId = async (slug: string) =>
  (await db.selectFrom("article_record").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

const editFile = (dir: string, file: string, edit: (text: string) => string) =>
  fs.writeFileSync(path.join(dir, file), edit(fs.readFileSync(path.join(dir, file), "utf8")));

const SLUG = "burnout-is-rising-fastest-in-the-middle";

/** An article file in the seed format, with extra front-matter lines. */
const newArticle = (title: string, extra = "") => `---
title: ${title}
dek: A dek for the imported piece.
subDek:
summary: A summary of the imported piece, in a sentence.
authors: callum-varghese
topics: Strategy, Growth Strategy
contentType: Article
published: 2026-05-20
tier: article
${extra}---
The body of the imported piece, in one paragraph.
`;

describe("npm run content -- export", () => {
  it("writes the seeded database as the seed content, byte for byte", async () => {
    const dir = await exported();
    for (const sub of ["articles", "authors"]) {
      const names = fs.readdirSync(path.join(SEED_DIR, sub)).sort();
      expect(fs.readdirSync(path.join(dir, sub)).sort()).toEqual(names);
      for (const name of names)
        expect(fs.readFileSync(path.join(dir, sub, name), "utf8"), `${sub}/${name}`).toBe(
          fs.readFileSync(path.join(SEED_DIR, sub, name), "utf8"),
        );
    }
    expect(fs.readFileSync(path.join(dir, "topics.json"), "utf8")).toBe(fs.readFileSync(path.join(SEED_DIR, "topics.json"), "utf8"));
    // And parsed by the seed's reader, the same content.
    expect(readArticleFiles(dir)).toEqual(readArticleFiles(SEED_DIR));
    expect(readAuthorFiles(dir)).toEqual(readAuthorFiles(SEED_DIR));
    expect(readTopicsFile(dir)).toEqual(readTopicsFile(SEED_DIR));
    expect(readArticleFiles(dir).items).toHaveLength(67);
  });

  it("leaves other files alone, rewrites only what differs, and refuses a folder that is a file", async () => {
    const dir = await exported();
    fs.writeFileSync(path.join(dir, "articles", "not-ours.md"), "kept");
    editFile(dir, `articles/${SLUG}.md`, (text) => text.replace("title: ", "title: Old "));
    const again = await exportContent(db, dir);
    expect(again).toMatchObject({ written: 1, unchanged: 67 + 15, articles: 67, authors: 15 });
    expect(fs.readFileSync(path.join(dir, "articles", "not-ours.md"), "utf8")).toBe("kept");
    expect(fs.readFileSync(path.join(dir, "articles", `${SLUG}.md`), "utf8")).toBe(
      fs.readFileSync(path.join(SEED_DIR, "articles", `${SLUG}.md`), "utf8"),
    );
    expect(fs.readdirSync(path.join(dir, "articles")).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const file = path.join(dir, "topics.json");
    await expect(exportContent(db, file)).rejects.toThrow(ExportRefused);
    await expect(exportContent(db, file)).rejects.toThrow(/is a file, not a folder/);
  });
});

describe("npm run content -- import", () => {
  it("changes nothing when given the export of the database, or the seed content itself", async () => {
    const before = await footprint();
    const summary = await imported(await exported());
    expect(summary).toEqual({
      articles: { created: 0, updated: 0, unchanged: 67 },
      authors: { created: 0, updated: 0, unchanged: 15 },
      topics: { created: 0, updated: 0, unchanged: 202 },
      moves: { published: 0, scheduled: 0, unscheduled: 0, unpublished: 0 },
      failures: [],
    });
    expect(describeSummary(summary)).toBe(
      "0 articles created, 0 updated, 67 unchanged; 0 authors created, 0 updated, 15 unchanged; 0 topics created, 0 updated, 202 unchanged.",
    );
    expect((await imported(SEED_DIR)).articles).toEqual({ created: 0, updated: 0, unchanged: 67 });
    expect(await footprint()).toEqual(before);
  });

  it("saves an edited file as one new revision of that article alone, by the command line, and again changes nothing", async () => {
    const dir = await exported();
    const id = await articleId(SLUG);
    const old = (await getDeskArticle(db, id))!;
    editFile(dir, `articles/${SLUG}.md`, (text) => text.replace(/^dek: .*$/m, "dek: A new dek from the files."));
    const before = await footprint();

    const summary = await imported(dir);
    expect(summary.articles).toEqual({ created: 0, updated: 1, unchanged: 66 });
    const now = (await getDeskArticle(db, id))!;
    expect(now).toMatchObject({ dek: "A new dek from the files.", version: old.version + 1, status: "published", title: old.title });
    const audit = await db.selectFrom("desk_audit").selectAll().where("at", "=", NOW.toISOString()).execute();
    expect(audit.map((row) => [row.action, row.subject, row.actor])).toEqual([["article.save", `article:${id}`, "command line"]]);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ version: old.version, dek: old.dek });
    const saves = await db.selectFrom("article_revision").selectAll().where("article_id", "=", id).orderBy("version").execute();
    // The seeded article first gets a revision of how it was (ADR 076), then the save's.
    expect(saves.map((r) => [r.version, r.saved_by_name])).toEqual([
      [old.version, "content files"],
      [old.version + 1, "command line"],
    ]);
    expect(await footprint()).toEqual({ ...before, audit: before.audit + 1, revisions: before.revisions + 2 });

    const again = await footprint();
    expect((await imported(dir)).articles).toEqual({ created: 0, updated: 0, unchanged: 67 });
    expect(await footprint()).toEqual(again);
  });

  it("creates a new file's article, published unless its status says otherwise, and a new author and topic it names", async () => {
    const dir = await exported();
    fs.writeFileSync(path.join(dir, "articles", "imported-and-published.md"), newArticle("Imported and Published"));
    fs.writeFileSync(
      path.join(dir, "articles", "imported-as-a-draft.md"),
      newArticle("Imported as a Draft", "status: draft\n").replace("callum-varghese", "callum-varghese, nadia-imported"),
    );
    fs.writeFileSync(
      path.join(dir, "articles", "imported-for-later.md"),
      newArticle("Imported for Later", "status: scheduled\npublishAt: 2026-07-01T08:00:00Z\n"),
    );
    fs.writeFileSync(
      path.join(dir, "articles", "imported-schedule-passed.md"),
      newArticle("Imported Schedule Passed", "status: scheduled\npublishAt: 2026-05-01T08:00:00+02:00\n"),
    );
    fs.writeFileSync(
      path.join(dir, "authors", "nadia-imported.md"),
      "---\nname: Nadia Imported\nrole: Writer from another system\n---\nA bio.\n",
    );
    editFile(dir, "topics.json", (text) =>
      text.replace(
        '{"name": "Growth Strategy",',
        '{"name": "Imported Topic", "description": "A topic from the files."},\n    {"name": "Growth Strategy",',
      ),
    );
    editFile(dir, "articles/imported-for-later.md", (text) =>
      text.replace("topics: Strategy, Growth Strategy", "topics: Strategy, imported topic"),
    );

    const summary = await imported(dir);
    expect(summary.articles).toEqual({ created: 4, updated: 0, unchanged: 67 });
    expect(summary.moves).toEqual({ published: 2, scheduled: 1, unscheduled: 0, unpublished: 0 });
    expect(summary.authors).toEqual({ created: 1, updated: 0, unchanged: 15 });
    expect(summary.topics).toEqual({ created: 1, updated: 0, unchanged: 202 });
    expect(describeSummary(summary)).toBe(
      "4 articles created, 0 updated, 67 unchanged (2 published, 1 scheduled); 1 author created, 0 updated, 15 unchanged; 1 topic created, 0 updated, 202 unchanged.",
    );

    const stateOf = async (slug: string) => {
      const article = (await getDeskArticle(db, await articleId(slug)))!;
      return { status: article.status, publishAt: article.publishAt, authors: article.authors, topics: article.topics };
    };
    expect(await stateOf("imported-and-published")).toMatchObject({ status: "published", publishAt: null });
    expect(await stateOf("imported-as-a-draft")).toMatchObject({ status: "draft", authors: ["callum-varghese", "nadia-imported"] });
    expect(await stateOf("imported-for-later")).toEqual({
      status: "scheduled",
      publishAt: "2026-07-01T08:00:00.000Z",
      authors: ["callum-varghese"],
      topics: ["Strategy", "Imported Topic"],
    });
    expect(await stateOf("imported-schedule-passed")).toMatchObject({ status: "published" });
    const readable = await db.selectFrom("article").select("slug").where("slug", "like", "imported-%").orderBy("slug").execute();
    expect(readable.map((a) => a.slug)).toEqual(["imported-and-published", "imported-schedule-passed"]);
    const topic = await db.selectFrom("topic").selectAll().where("slug", "=", "imported-topic").executeTakeFirstOrThrow();
    const strategy = await db.selectFrom("topic").select("id").where("name", "=", "Strategy").executeTakeFirstOrThrow();
    expect(topic).toMatchObject({ name: "Imported Topic", subject_id: strategy.id });

    const audit = await db.selectFrom("desk_audit").select(["action", "subject"]).where("actor", "=", "command line").execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "author.create", subject: "author:nadia-imported" },
        { action: "topic.create", subject: "topic:imported-topic" },
      ]),
    );

    // The export writes the states back, and the folder then imports as no change.
    const again = await exported();
    const later = fs.readFileSync(path.join(again, "articles", "imported-for-later.md"), "utf8");
    expect(later.split("\n").slice(-5, -3)).toEqual(["status: scheduled", "publishAt: 2026-07-01T08:00:00.000Z"]);
    expect(fs.readFileSync(path.join(again, "articles", "imported-as-a-draft.md"), "utf8")).toContain("\nstatus: draft\n---\n");
    const before = await footprint();
    expect((await imported(again)).articles).toEqual({ created: 0, updated: 0, unchanged: 71 });
    expect((await imported(dir)).articles).toEqual({ created: 0, updated: 0, unchanged: 71 });
    expect(await footprint()).toEqual(before);
  });

  it("takes a published article down when its file says unpublished or draft, and puts it back when it says published", async () => {
    const dir = await exported();
    const id = await articleId("when-everything-is-urgent");
    editFile(dir, "articles/when-everything-is-urgent.md", (text) => text.replace("\n---\n", "\nstatus: draft\n---\n"));
    const summary = await imported(dir);
    expect(summary).toMatchObject({ articles: { updated: 1 }, moves: { unpublished: 1 } });
    expect((await getDeskArticle(db, id))!.status).toBe("unpublished");
    // Draft and unpublished are both hidden: the article is not moved back and forth.
    expect((await imported(dir)).articles).toMatchObject({ updated: 0 });

    editFile(dir, "articles/when-everything-is-urgent.md", (text) => text.replace("\nstatus: draft\n", "\n"));
    expect(await imported(dir)).toMatchObject({ articles: { updated: 1 }, moves: { published: 1 } });
    expect((await getDeskArticle(db, id))!.status).toBe("published");
  });

  it("changes an author and a topic whose file differs as the desk does: a new version, audited, the generation counted up", async () => {
    const dir = await exported();
    editFile(dir, "authors/callum-varghese.md", (text) => text.replace(/^role: .*$/m, "role: Imported role"));
    editFile(dir, "topics.json", (text) =>
      text.replace(/("name": "Growth Strategy", "description": )"[^"]*"/, '$1"Imported description."'),
    );
    const author = () =>
      db
        .selectFrom("author")
        .select(["role", "version", "updated_by_name"])
        .where("slug", "=", "callum-varghese")
        .executeTakeFirstOrThrow();
    const generation = async () =>
      Number((await db.selectFrom("content_generation").select("generation").executeTakeFirstOrThrow()).generation);
    const [was, generationWas] = [await author(), await generation()];
    const summary = await imported(dir);
    expect(summary).toMatchObject({ authors: { updated: 1 }, topics: { updated: 1 }, articles: { created: 0, updated: 0 } });
    expect(await author()).toEqual({ role: "Imported role", version: was.version + 1, updated_by_name: "command line" });
    expect(await generation()).toBe(generationWas + 2);
    const audit = await db
      .selectFrom("desk_audit")
      .select(["action", "subject", "after"])
      .where("action", "in", ["author.update", "topic.update"])
      .orderBy("id")
      .execute();
    expect(audit.map((row) => [row.action, row.subject, JSON.parse(row.after!)])).toEqual([
      ["topic.update", "topic:growth-strategy", { description: "Imported description." }],
      ["author.update", "author:callum-varghese", { role: "Imported role" }],
    ]);
    expect(await imported(dir)).toMatchObject({ authors: { updated: 0 }, topics: { updated: 0 } });
  });

  it("refuses a folder with any invalid file, naming every problem, and changes nothing", async () => {
    const dir = await exported();
    editFile(dir, `articles/${SLUG}.md`, (text) => text.replace(/^dek: .*$/m, "dek: A valid change that must not be applied."));
    editFile(dir, "articles/when-everything-is-urgent.md", (text) => text.replace(/^title: .*\n/m, ""));
    editFile(dir, "articles/why-adjacent-growth-bets-fail.md", (text) =>
      text.replace(/^authors: .*$/m, "authors: nobody-we-know").replace(/^tier: .*$/m, "tier: article\nstatus: scheduled"),
    );
    fs.writeFileSync(path.join(dir, "articles", "Not A Slug.md"), newArticle("Bad Name"));
    fs.writeFileSync(path.join(dir, "authors", "no-front-matter.md"), "Just a bio.\n");
    const before = await footprint();

    const result: ImportResult = await importContent(db, COMMAND_LINE, dir, NOW);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems.map((p) => `${p.file}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        "authors/no-front-matter.md: missing front matter",
        expect.stringMatching(/^articles\/when-everything-is-urgent\.md: title: Required$/),
        expect.stringMatching(/^articles\/Not A Slug\.md: .*not a slug/),
        expect.stringMatching(/^articles\/why-adjacent-growth-bets-fail\.md: publishAt: publishAt goes with status: scheduled/),
      ]),
    );
    expect(problems).toHaveLength(4);
    expect(await footprint()).toEqual(before);
    expect((await getDeskArticle(db, await articleId(SLUG)))!.dek).not.toBe("A valid change that must not be applied.");

    // References are checked against the database and the folder before anything is written.
    editFile(dir, "articles/why-adjacent-growth-bets-fail.md", (text) => text.replace("\nstatus: scheduled", ""));
    fs.rmSync(path.join(dir, "articles", "Not A Slug.md"));
    fs.rmSync(path.join(dir, "authors", "no-front-matter.md"));
    fs.rmSync(path.join(dir, "articles", "when-everything-is-urgent.md"));
    editFile(dir, "articles/your-first-presentation-to-senior-leaders.md", (text) =>
      text.replace("topics: Managing Yourself, Public Speaking,", "topics: Public Speaking,"),
    );
    editFile(dir, "articles/your-data-problem-is-an-ownership-problem.md", (text) =>
      text.replace(/^topics: (.*)$/m, "topics: $1, Astrology"),
    );
    const refused = await importContent(db, COMMAND_LINE, dir, NOW);
    expect(refused.ok ? [] : refused.problems.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'articles/why-adjacent-growth-bets-fail.md: authors: no author has the slug "nobody-we-know" (in the database or authors/).',
      'articles/your-data-problem-is-an-ownership-problem.md: topics: no topic is named "Astrology" (in the database or topics.json).',
      'articles/your-first-presentation-to-senior-leaders.md: topics: the first topic is the primary one and must be a subject; "Public Speaking" is a topic within one.',
    ]);
    expect(await footprint()).toEqual(before);
  });
  /** An editor at the desk, saving while an import runs. */
  const DESK: AuditActor = { id: null, label: "Ada Desk" };

  async function readFolderFor(dir: string) {
    const read = await readImport(db, dir);
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    return read.plan;
  }

  it("reports a file whose article was saved at the desk since the import read it as a conflict, and overwrites nothing", async () => {
    const dir = await exported();
    const edited = "when-everything-is-urgent";
    editFile(dir, `articles/${edited}.md`, (text) =>
      text.replace(/^dek: .*$/m, "dek: The file's dek.").replace("\n---\n", "\nstatus: draft\n---\n"),
    );
    const plan = await readFolderFor(dir);
    // After the import read the folder, the desk saves the edited file's article, and one whose file is as it was.
    const ids = [await articleId(edited), await articleId(SLUG)];
    for (const id of ids) {
      const article = (await getDeskArticle(db, id))!;
      expect((await saveArticle(db, DESK, id, article.version, { ...article, title: `${article.title} (desk)` }, NOW)).ok).toBe(true);
    }
    const atDesk = await Promise.all(ids.map(async (id) => (await getDeskArticle(db, id))!));
    const before = await footprint();

    const summary = await applyImport(db, COMMAND_LINE, plan, NOW);
    const conflict = expect.stringMatching(
      new RegExp(
        `^conflict: Ada Desk changed the article at ${NOW.toISOString()} since the import read it, so nothing of this file was written`,
      ),
    );
    expect([...summary.failures].sort((a, b) => a.file.localeCompare(b.file))).toEqual([
      { file: `articles/${SLUG}.md`, message: conflict },
      { file: `articles/${edited}.md`, message: conflict },
    ]);
    expect(summary.articles).toEqual({ created: 0, updated: 0, unchanged: plan.folder.articles!.length - 2 });
    expect(summary.moves).toEqual({ published: 0, scheduled: 0, unscheduled: 0, unpublished: 0 });
    expect(await Promise.all(ids.map(async (id) => (await getDeskArticle(db, id))!))).toEqual(atDesk);
    expect(await footprint()).toEqual(before);

    // Imported again, the folder is read anew and applied over the desk's changes, as the message says.
    expect((await imported(dir)).failures).toEqual([]);
    expect(await getDeskArticle(db, ids[0]!)).toMatchObject({
      status: "unpublished",
      dek: "The file's dek.",
      title: atDesk[0]!.title.replace(" (desk)", ""),
    });
  });

  it("applies an article file whole or not at all: a save refused after the article was hidden leaves it published", async () => {
    const dir = await exported();
    const slug = "the-first-72-hours-of-a-cyberattack";
    editFile(dir, `articles/${slug}.md`, (text) =>
      text.replace(/^dek: .*$/m, "dek: A dek that is never saved.").replace("\n---\n", "\nstatus: unpublished\n---\n"),
    );
    // Articles alone: the folder's topics.json would make the topic again.
    fs.rmSync(path.join(dir, "topics.json"));
    const plan = await readFolderFor(dir);
    // After the import read the folder, the desk renames a topic the file names: its save is refused, after it was hidden.
    const topic = await db.selectFrom("topic").select(["id", "version"]).where("name", "=", "Crisis Management").executeTakeFirstOrThrow();
    const renamed = await updateTopic(
      db,
      { actor: DESK, name: "Ada Desk" },
      topic.id,
      { version: topic.version, name: "Crisis Response" },
      NOW,
    );
    expect(renamed.ok).toBe(true);
    const id = await articleId(slug);
    const was = (await getDeskArticle(db, id))!;
    const before = await footprint();

    const summary = await applyImport(db, COMMAND_LINE, plan, NOW);
    expect(summary.failures).toEqual([{ file: `articles/${slug}.md`, message: 'No topic is named "Crisis Management".' }]);
    expect(summary.moves).toEqual({ published: 0, scheduled: 0, unscheduled: 0, unpublished: 0 });
    expect(await getDeskArticle(db, id)).toEqual(was);
    expect(was.status).toBe("published");
    expect(await db.selectFrom("article").select("slug").where("slug", "=", slug).executeTakeFirst()).toEqual({ slug });
    expect(await footprint()).toEqual(before);
  });
});

describe("the command", () => {
  let connection: IsolatedConnection;
  beforeAll(async () => {
    connection = await isolatedConnection("content-cli");
  });
  afterAll(() => connection.drop());

  /** `npm run content` itself, in a process of its own. */
  const spawned = (args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "server/content-files/cli.ts", ...args], {
      env: { ...process.env, ...databaseEnv(connection) },
    });

  /** What `npm run content` runs, in this process: its exit code and what it wrote. */
  async function run(args: string[]) {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runContentCommand(args, { out: (line) => stdout.push(line), err: (line) => stderr.push(line) }, async () => {
      const opened = await openDatabase(connection);
      return { db: opened, contentDir: SEED_DIR, close: () => opened.destroy() };
    });
    return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
  }

  it("exports, imports an edit with a summary, refuses an invalid folder with exit 1, and says how it is used with exit 2", async () => {
    const dir = tempFolder();
    const { stdout } = await spawned(["export", dir]);
    expect(stdout).toContain(`Exported 67 articles, 15 authors and 202 topics to ${dir}: 83 files written, 0 unchanged.`);
    editFile(dir, `articles/${SLUG}.md`, (text) => text.replace(/^dek: .*$/m, "dek: Edited on the command line."));

    expect(await run(["import", dir])).toEqual({
      code: 0,
      stdout:
        "0 articles created, 1 updated, 66 unchanged; 0 authors created, 0 updated, 15 unchanged; 0 topics created, 0 updated, 202 unchanged.",
      stderr: "",
    });
    expect((await run(["import", dir])).stdout).toContain("0 articles created, 0 updated, 67 unchanged;");
    const check = connect(connection);
    try {
      const row = await check
        .selectFrom("article_record")
        .select(["dek", "updated_by_name"])
        .where("slug", "=", SLUG)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ dek: "Edited on the command line.", updated_by_name: "command line" });
    } finally {
      await check.destroy();
    }

    editFile(dir, `articles/${SLUG}.md`, (text) => text.replace(/^tier: .*$/m, "tier: gold"));
    expect(await run(["import", dir])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${path.join(dir, "articles", `${SLUG}.md`)}: tier: Invalid enum value`),
    });
    expect(await run(["export", path.join(dir, "topics.json")])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("is a file, not a folder"),
    });
    expect(await run(["import", path.join(dir, "nothing-here")])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("is not a folder"),
    });
    await expect(spawned(["publish", dir])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("usage: npm run content") });
  });
});
