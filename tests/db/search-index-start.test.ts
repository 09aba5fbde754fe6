import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { connect, type Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { searchContent } from "~/server/search";
import { openSeededDatabase } from "~/tests/helpers/template-db";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
  for (const drop of drops) await drop();
});

const documents = async (db: Database) =>
  Number(
    (
      await db
        .selectFrom("search_document")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`the search index at start (${dialectName})`, () => {
  it("is built from the content when a database has content but no index, as one written before search had", async () => {
    const connection = await isolatedConnection("search-start");
    drops.push(connection.drop);
    const before = connect(connection);
    const whole = await documents(before);
    const article = await before.selectFrom("article").select(["slug", "title"]).orderBy("id").executeTakeFirstOrThrow();
    await before.deleteFrom("search_document_topic").execute();
    await before.deleteFrom("search_document").execute();
    if (!isPostgres(before)) {
      for (const table of ["search_text", "search_heading", "search_title"]) {
        await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('delete-all')`.execute(before);
      }
    }
    await before.deleteFrom("seed_state").where("name", "=", "search-index").execute();
    await before.destroy();

    const db = await openSeededDatabase(connection);
    opened.push(db);
    expect(whole).toBeGreaterThan(30);
    expect(await documents(db)).toBe(whole);
    const found = await searchContent(
      db,
      { query: article.title, kinds: ["article"], topicId: null, from: null, to: null, sort: "relevance", paging: { page: 1, loaded: 1 } },
      { previewBlocks: 3 },
    );
    expect(found.entries.map((e) => e.url)).toContainEqual(expect.stringContaining(article.slug));
  });
});
