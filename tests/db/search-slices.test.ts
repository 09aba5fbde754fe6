import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Database } from "~/server/db/connection";
import { searchContent, type SearchRequest } from "~/server/search";
import { resliceSearchIndex, searchSlices, sliceIndexes } from "~/server/search/slices";
import { addSyntheticArticles } from "~/server/seed/synthetic";
import { dialectName, isolatedConnection, type IsolatedConnection } from "~/tests/helpers/test-db";

// PostgreSQL only: SQLite's FTS5 walks a word's matches in key order and has no slices (ADR 040).
describe.runIf(dialectName === "postgres")("PostgreSQL's search index in time slices", () => {
  let connection: IsolatedConnection;
  let db: Database;
  /** A second process's connection to the same database. */
  let other: Database;

  beforeAll(async () => {
    connection = await isolatedConnection("slices");
    db = connect(connection);
    other = connect(connection);
    await addSyntheticArticles(db, 300);
  });
  afterAll(async () => {
    await db.destroy();
    await other.destroy();
    await connection.drop();
  });

  const QUERIES = ["strategy", "customers", "board succession planning", '"supply chain"', "leadersh", "frontline OR innovation"];
  const REQUESTS: Partial<SearchRequest>[] = [
    { sort: "relevance" },
    { sort: "newest" },
    { sort: "newest", paging: { page: 3, loaded: 1 } },
    { sort: "relevance", from: "2001-01-01", to: "2012-12-31" },
    { sort: "newest", kinds: ["article"] },
  ];
  const everything = async (on: Database) => {
    const answers = [];
    for (const query of QUERIES) {
      for (const request of REQUESTS) {
        const results = await searchContent(
          on,
          { query, kinds: [], topicId: null, from: null, to: null, sort: "relevance", paging: { page: 1, loaded: 1 }, ...request },
          "full",
        );
        answers.push({
          query,
          request,
          urls: results.entries.map((e) => e.url),
          page: results.page,
          kinds: results.kinds,
          topics: results.topics,
        });
      }
    }
    return answers;
  };

  const slicesSizes = async (slices: { first: number | null; end: number | null }[]) => {
    const sizes = [];
    for (const { first, end } of slices) {
      const { rows } = await sql<{ n: string }>`
        select count(*) as n from search_document where id >= ${first ?? 0} and id < ${end ?? Number.MAX_SAFE_INTEGER}`.execute(db);
      sizes.push(Number(rows[0]!.n));
    }
    return sizes;
  };

  it("re-slices newest first once the documents outgrow one slice, and finds exactly what it found before", async () => {
    const before = await everything(db);
    expect(before.some((a) => a.urls.length === 10)).toBe(true);
    expect(await searchSlices(db)).toEqual([{ first: null, end: null }]);
    expect(await everything(other)).toEqual(before);

    expect(await resliceSearchIndex(db, { concurrently: true, base: 16 })).toBe(true);
    const slices = await searchSlices(db);
    expect(slices[0]!.first).toBeNull();
    expect(slices.at(-1)!.end).toBeNull();
    for (const [i, slice] of slices.entries()) if (i > 0) expect(slice.first).toBe(slices[i - 1]!.end);
    // The newest 16 documents, then twice as many in each older slice, the oldest taking the rest.
    const sizes = await slicesSizes(slices);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(300);
    expect(sizes.slice(0, -1)).toEqual([16, 16, 32, 64, 128, 256].slice(0, sizes.length - 1));
    expect(sizes.at(-1)).toBe(total - 16 * 2 ** (sizes.length - 2));
    expect((await sliceIndexes(db)).sort()).toEqual(slices.flatMap((_, i) => [`search_heading_2_${i}`, `search_words_2_${i}`]).sort());

    expect(await everything(db)).toEqual(before);
    // Another process, which read the old layout a moment ago, finds the same until it reads the new one.
    expect(await everything(other)).toEqual(before);
    // Nothing has drifted: a second run leaves the index alone.
    expect(await resliceSearchIndex(db, { concurrently: true, base: 16 })).toBe(false);
  });

  it("re-slices in one process at a time, and clears what an interrupted re-slice left", async () => {
    // A re-slice that stopped after building an index of its next generation.
    await sql`create index search_words_3_0 on search_match using gin (words) where id < 0`.execute(db);
    const done = await Promise.all([
      resliceSearchIndex(db, { concurrently: true, base: 8 }),
      resliceSearchIndex(other, { concurrently: true, base: 8 }),
    ]);
    expect(done.filter(Boolean)).toHaveLength(1);
    // The process that re-sliced knows the new layout at once; the other trusts what it read for a minute.
    const slices = await searchSlices(done[0] ? db : other);
    expect((await slicesSizes(slices)).slice(0, 3)).toEqual([8, 8, 16]);
    expect((await sliceIndexes(db)).sort()).toEqual(slices.flatMap((_, i) => [`search_heading_3_${i}`, `search_words_3_${i}`]).sort());
    const { rows } = await sql<{ predicate: string }>`
      select pg_get_expr(indpred, indrelid) as predicate from pg_index where indexrelid = 'search_words_3_0'::regclass`.execute(db);
    expect(rows[0]!.predicate).toContain(String(slices[0]!.end));
  });
});
