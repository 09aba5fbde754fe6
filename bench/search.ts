// Search benchmark: npm run build && npm run bench:search
//   BENCH_ARTICLES (default 100000) synthetic articles, BENCH_DATABASES=sqlite,postgres (default
//   both), BENCH_SECONDS per HTTP run (default 10), BENCH_POSTGRES_URL for the server to create
//   the throwaway database on (default postgres://postgres@127.0.0.1:5432/postgres).
// For each database: how long the seed CLI takes to add and index the articles; in process, the
// engine's calls and searchContent for a few kinds of query, and suggest; then over HTTP, the
// search page and the auto-suggest endpoint at 1 and 8 connections, first each of a few queries
// asked over and over (the search page is then a guest-page cache hit), then a long tail of
// queries and typed prefixes asked once each (the search page rendered every time), with the
// cache's hits and misses apart. Every request sends a desktop browser's User-Agent. Ends with
// a markdown table of the figures against their targets.
import fs from "node:fs";
import os from "node:os";
import { sql } from "kysely";
import type { Database } from "~/server/db/connection";
import { isPostgres } from "~/server/db/dialect";
import { findMatches, searchContent, suggest } from "~/server/search";
import { parseQuery, toFts5, toTsquery } from "~/server/search/query";
import { openSeededDatabase } from "~/tests/helpers/template-db";
import { browserFetch } from "./browser";
import { getEachOnce, load, timeCalls } from "./latency";
import {
  databaseTable,
  markdownSummary,
  type BenchQuery,
  type DatabaseFigures,
  type EngineFigures,
  type LongTailFigures,
} from "./search-report";
import { cleanUp, createDatabase, ENGINE_NAMES, postgresVersion, seed, startServer, type BenchDatabase, type Engine } from "./search-setup";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ENGINES = (process.env.BENCH_DATABASES ?? "sqlite,postgres").split(",").map((e) => e.trim()) as Engine[];
const RUNS = 200;
const CONNECTIONS = [1, 8];

// Chosen from the seeded data: synthetic articles recombine the base articles' paragraphs, so a
// word found only outside them stays rare at any scale, and the common words grow with it.
const QUERIES: BenchQuery[] = [
  { label: "rare word", text: "frontline" },
  { label: "common word", text: "strategy" },
  { label: "very common word", text: "customers" },
  { label: "three words", text: "board succession planning" },
  { label: "phrase", text: '"supply chain"' },
];
const SUGGEST_TERMS = ["str", "stra", "strate"];

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

const NO_FILTERS = { kinds: [], topicId: null, from: null, to: null };
/** What a guest may read of a gated article: the server's default preview. */
const GUEST_ACCESS = { previewBlocks: 3 };

async function engineFigures(db: Database, query: BenchQuery): Promise<EngineFigures> {
  const request = { query: query.text, ...NO_FILTERS, sort: "relevance" as const, paging: { page: 1, loaded: 1 } };
  const newest = { ...request, sort: "newest" as const };
  return {
    query,
    matches: await allMatches(db, query.text),
    engine: await timeCalls(() => findMatches(db, request), RUNS),
    engineNewest: await timeCalls(() => findMatches(db, newest), RUNS),
    searchContent: await timeCalls(() => searchContent(db, request, GUEST_ACCESS), RUNS),
  };
}

/** Every match, counted outside the engine's windows (to say how common a query is). */
async function allMatches(db: Database, text: string): Promise<number> {
  const query = parseQuery(text);
  const statement = isPostgres(db)
    ? sql<{ n: string }>`select count(*) as n from search_match where words @@ to_tsquery('english', ${toTsquery(query)})`
    : sql<{ n: number }>`select count(*) as n from search_text where search_text match ${toFts5(query)}`;
  const { rows } = await statement.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** How many documents' titles match what was typed (suggest shows only the newest few). */
async function titleMatches(db: Database, term: string): Promise<number> {
  const query = parseQuery(term);
  const statement = isPostgres(db)
    ? sql<{ n: string }>`select count(*) as n from search_document where title_words @@ to_tsquery('simple', ${toTsquery(query)})`
    : sql<{ n: number }>`select count(*) as n from search_title where search_title match ${toFts5(query)}`;
  const { rows } = await statement.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Queries no one asked before, for asking once each: the words of four letters or more in the
 * seed's article titles and topic names, and each pair of neighbouring ones, in the order they
 * first appear (synthetic articles are left out, so the list is the same at any scale), but for
 * QUERIES, asked before them. And what a reader types before such a word: its first 3, 4 and 5
 * letters.
 */
async function longTail(db: Database): Promise<{ queries: string[]; prefixes: string[] }> {
  const titles = await db.selectFrom("article").select("title").where("slug", "not like", "synthetic-%").orderBy("id").execute();
  const topics = await db.selectFrom("topic").select("name").orderBy("id").execute();
  const queries = new Set<string>();
  for (const text of [...titles.map((a) => a.title), ...topics.map((t) => t.name)]) {
    const words = text.toLowerCase().match(/[a-z]{4,}/g) ?? [];
    words.forEach((word, i) => {
      queries.add(word);
      if (i > 0) queries.add(`${words[i - 1]} ${word}`);
    });
  }
  for (const { text } of QUERIES) queries.delete(text);
  const words = [...queries].filter((q) => !q.includes(" "));
  return { queries: [...queries], prefixes: [...new Set(words.flatMap((word) => [3, 4, 5].map((n) => word.slice(0, n))))] };
}

async function countRows(db: Database, table: "article" | "search_document"): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function inProcess(database: BenchDatabase) {
  const db = await openSeededDatabase(
    database.databaseUrl ? { databaseUrl: database.databaseUrl, dataDir: database.dataDir } : { dataDir: database.dataDir },
  );
  try {
    let vacuumSeconds: number | null = null;
    if (isPostgres(db)) {
      // What autovacuum and the checkpointer would have done by the time anyone searches:
      // planner statistics, the GIN indexes' pending lists merged, and the seed's pages written
      // out (the background writer flushing them otherwise runs beside the first searches).
      const started = performance.now();
      await sql`vacuum analyze`.execute(db);
      await sql`checkpoint`.execute(db);
      vacuumSeconds = (performance.now() - started) / 1000;
    }
    const engine: EngineFigures[] = [];
    for (const query of QUERIES) engine.push(await engineFigures(db, query));
    const suggestFigures = [];
    for (const term of SUGGEST_TERMS) {
      suggestFigures.push({ term, titles: await titleMatches(db, term), timing: await timeCalls(() => suggest(db, term), RUNS) });
    }
    return {
      tail: await longTail(db),
      articles: await countRows(db, "article"),
      documents: await countRows(db, "search_document"),
      vacuumSeconds,
      engine,
      suggest: suggestFigures,
    };
  } finally {
    await db.destroy();
  }
}

async function overHttp(database: BenchDatabase, tail: { queries: string[]; prefixes: string[] }) {
  const server = await startServer(database);
  try {
    const measure = async (path: string, connections: number) => {
      const warmUntil = performance.now() + 3000;
      for (let i = 0; i < 10 && performance.now() < warmUntil; i++) await (await browserFetch(server.base + path)).arrayBuffer();
      return load(server.base + path, connections, SECONDS);
    };
    const searchPage = [];
    for (const query of QUERIES) {
      for (const connections of CONNECTIONS) {
        searchPage.push({ query, connections, result: await measure(`/search?q=${encodeURIComponent(query.text)}`, connections) });
      }
    }
    const autoSuggest = [];
    for (const term of SUGGEST_TERMS) {
      for (const connections of CONNECTIONS) {
        autoSuggest.push({
          term,
          connections,
          result: await measure(`/service/search/auto-suggest?term=${encodeURIComponent(term)}`, connections),
        });
      }
    }
    // Each run asks its own share of the lists, so no query is asked twice.
    const share = (list: string[], run: number) => list.filter((_, k) => k % CONNECTIONS.length === run);
    const longTailFigures: LongTailFigures[] = [];
    for (const [run, readers] of CONNECTIONS.entries()) {
      const queries = share(tail.queries, run).map((q) => `${server.base}/search?q=${encodeURIComponent(q)}`);
      longTailFigures.push({ kind: "search page", readers, asked: queries.length, result: await getEachOnce(queries, readers) });
      const terms = share(tail.prefixes, run).map((t) => `${server.base}/service/search/auto-suggest?term=${encodeURIComponent(t)}`);
      longTailFigures.push({ kind: "auto-suggest", readers, asked: terms.length, result: await getEachOnce(terms, readers) });
    }
    const failed =
      [...searchPage, ...autoSuggest].some((m) => m.result.non2xx + m.result.errors > 0) ||
      longTailFigures.some((f) => f.result.failed > 0);
    if (failed && server.errors()) console.error(`The server wrote to stderr:\n${server.errors()}`);
    return { searchPage, autoSuggest, longTail: longTailFigures };
  } finally {
    await server.stop();
  }
}

async function measureDatabase(engine: Engine): Promise<DatabaseFigures> {
  const database = await createDatabase(engine);
  console.error(`${ENGINE_NAMES[engine]}: seeding ${ARTICLES.toLocaleString("en-US")} articles…`);
  const seeded = await seed(database, ARTICLES);
  console.error(`${ENGINE_NAMES[engine]}: measuring in process…`);
  const { tail, ...measured } = await inProcess(database);
  console.error(`${ENGINE_NAMES[engine]}: measuring over HTTP…`);
  return { name: ENGINE_NAMES[engine], seed: seeded, ...measured, ...(await overHttp(database, tail)) };
}

async function main() {
  if (!fs.existsSync("build/server.js")) {
    console.error("build/server.js is missing: run `npm run build` first.");
    process.exit(1);
  }
  const unknown = ENGINES.filter((e) => !Object.hasOwn(ENGINE_NAMES, e));
  if (unknown.length > 0) throw new Error(`BENCH_DATABASES: unknown ${unknown.join(", ")} (use sqlite, postgres or both)`);
  // Kept for repeats too: tsx passes the signal on again, and without a listener it would end this process mid-cleanup.
  let interrupted = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: removing the benchmark databases`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  const postgres = ENGINES.includes("postgres") ? `, PostgreSQL ${await postgresVersion()}` : "";
  console.log(
    `Search benchmark: ${ARTICLES.toLocaleString("en-US")} synthetic articles; ${RUNS} runs per in-process figure, ${SECONDS} s per HTTP run.\n` +
      `${os.cpus().length} cores, Node ${process.version}${postgres}; build/server.js runs ${process.env.WEB_CONCURRENCY ?? os.availableParallelism()} processes, and autocannon runs in this one on the same machine.\n` +
      `Load average at the start: ${loadAverage()} (other work on the machine shows in every figure).\n`,
  );
  const all: DatabaseFigures[] = [];
  try {
    for (const engine of ENGINES) {
      const figures = await measureDatabase(engine);
      all.push(figures);
      console.log(`${databaseTable(figures, RUNS)}\n\nLoad average after ${figures.name}: ${loadAverage()}\n`);
    }
  } finally {
    await cleanUp();
  }
  console.log(markdownSummary(all, ARTICLES, RUNS));
}

main().catch(async (error: unknown) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});
