// How the search benchmark prints its figures: a table per database as it is measured, and at
// the end one markdown table against the targets, for pasting into an issue.
import { percentile, type EachOnce, type LoadResult, type Timing } from "./latency";
import { ms, table } from "./table";

export interface BenchQuery {
  label: string;
  text: string;
}

export interface EngineFigures {
  query: BenchQuery;
  matches: number;
  /** findMatches, relevance order: what the engine does for a search page, without text. */
  engine: Timing;
  /** The same, newest first. */
  engineNewest: Timing;
  searchContent: Timing;
}

/** A list of queries (or typed prefixes) asked once each, `readers` at a time. */
export interface LongTailFigures {
  kind: "search page" | "auto-suggest";
  readers: number;
  asked: number;
  result: EachOnce;
}

export interface DatabaseFigures {
  name: string;
  articles: number;
  documents: number;
  seed: { seconds: number; report: string };
  /** PostgreSQL only: the VACUUM ANALYZE and CHECKPOINT run before measuring. */
  vacuumSeconds: number | null;
  engine: EngineFigures[];
  suggest: { term: string; titles: number; timing: Timing }[];
  searchPage: { query: BenchQuery; connections: number; result: LoadResult }[];
  autoSuggest: { term: string; connections: number; result: LoadResult }[];
  longTail: LongTailFigures[];
}

export const TARGETS = { seedSeconds: 180, engineP99: 5, searchPageP99: 50, autoSuggestP95: 10, connections: 8 };

const count = (n: number) => n.toLocaleString("en-US");
export const describe = (q: BenchQuery) => `${q.label}: ${q.text}`;

const loadRow = (name: string, connections: number, r: LoadResult) => [
  `  ${name}`,
  String(connections),
  r.rps.toFixed(r.rps < 10 ? 1 : 0),
  ms(r.p50),
  ms(r.p95),
  ms(r.p99),
  String(r.non2xx),
  String(r.errors),
];
const LOAD_COLUMNS = ["conc", "req/s", "p50 ms", "p95 ms", "p99 ms", "non-2xx", "errors"];

export function databaseTable(f: DatabaseFigures, runs: number): string {
  const vacuum = f.vacuumSeconds === null ? "" : `; VACUUM ANALYZE and CHECKPOINT ${f.vacuumSeconds.toFixed(1)} s before measuring`;
  const timed = (name: string, t: Timing, matches = "") => [name, matches, ms(t.p50), ms(t.p99), t.runs < runs ? `${t.runs} runs` : ""];
  const engineRows = f.engine.flatMap((e) => [
    [`  ${describe(e.query)}`, count(e.matches), "", "", ""],
    timed("    engine: match, rank, count (relevance)", e.engine),
    timed("    engine: match, count (newest first)", e.engineNewest),
    timed("    searchContent (with documents and snippets)", e.searchContent),
  ]);
  const suggestRows = f.suggest.map((s) => timed(`  suggest("${s.term}")`, s.timing, count(s.titles)));
  return [
    `${f.name}, ${count(f.articles)} articles, ${count(f.documents)} search documents (seed ${f.seed.seconds.toFixed(1)} s${vacuum})`,
    `  seed CLI: ${f.seed.report}`,
    table([[`engine (in-process, ${runs} runs unless said)`, "matches", "p50 ms", "p99 ms", ""], ...engineRows, ...suggestRows]),
    table([
      ["search page (GET /search?q=), each query over and over: guest-page cache hits", ...LOAD_COLUMNS],
      ...f.searchPage.map((s) => loadRow(describe(s.query), s.connections, s.result)),
    ]),
    table([
      ["auto-suggest (GET /service/search/auto-suggest?term=)", ...LOAD_COLUMNS],
      ...f.autoSuggest.map((s) => loadRow(`"${s.term}"`, s.connections, s.result)),
    ]),
    "(latencies of 2xx answers; errors: connection errors and requests unanswered after 10 s, autocannon's timeout)",
    table([
      [
        "search page, each query asked once (long tail)",
        "readers",
        "asked",
        "misses",
        "p50 ms",
        "p99 ms",
        "hits",
        "p50 ms",
        "p99 ms",
        "failed",
      ],
      ...longTail(f, "search page").map((t) => [
        "",
        String(t.readers),
        String(t.asked),
        ...[t.result.times.miss, t.result.times.hit].flatMap((times) => [
          String(times.length),
          ms(percentile(times, 50)),
          ms(percentile(times, 99)),
        ]),
        String(t.result.failed),
      ]),
    ]),
    table([
      ["auto-suggest, each prefix typed once", "readers", "asked", "p50 ms", "p95 ms", "p99 ms", "failed"],
      ...longTail(f, "auto-suggest").map((t) => [
        "",
        String(t.readers),
        String(t.asked),
        ...[50, 95, 99].map((p) => ms(percentile(t.result.times.none, p))),
        String(t.result.failed),
      ]),
    ]),
    "(failed: answers outside 2xx, and requests that failed or went unanswered for 30 s)",
  ].join("\n\n");
}

const longTail = (f: DatabaseFigures, kind: LongTailFigures["kind"]) => f.longTail.filter((t) => t.kind === kind);
const longTailAt = (f: DatabaseFigures, kind: LongTailFigures["kind"]) => longTail(f, kind).find((t) => t.readers === TARGETS.connections)!;

function verdict(value: number, limit: number, unit: string, strict = false): string {
  if (Number.isNaN(value)) return "no answer ❌";
  const meets = strict ? value < limit : value <= limit;
  return `${unit === "s" ? value.toFixed(1) : ms(value)} ${unit} ${meets ? "✅" : "❌"}`;
}

function failures(r: LoadResult): string {
  const kinds = [r.non2xx > 0 ? `${count(r.non2xx)} non-2xx` : "", r.errors > 0 ? `${count(r.errors)} errors or timeouts` : ""];
  const said = kinds.filter(Boolean).join(", ");
  return said ? ` (${said})` : "";
}

/** One markdown row per target figure, one column per database. */
export function markdownSummary(all: DatabaseFigures[], articles: number, runs: number): string {
  const at = TARGETS.connections;
  const first = all[0]!;
  const rows: [string, string, (f: DatabaseFigures) => string][] = [
    [
      `Seed of ${count(articles)} articles, index included`,
      `< ${TARGETS.seedSeconds} s`,
      (f) => verdict(f.seed.seconds, TARGETS.seedSeconds, "s", true),
    ],
    ...first.engine.map((e, i): [string, string, (f: DatabaseFigures) => string] => [
      `Engine p99, ${describe(e.query)}`,
      `≤ ${TARGETS.engineP99} ms`,
      (f) => {
        const { engine, matches } = f.engine[i]!;
        return `${verdict(engine.p99, TARGETS.engineP99, "ms")} (${count(matches)} matches${engine.runs < runs ? `; ${engine.runs} runs` : ""})`;
      },
    ]),
    ...first.searchPage
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.connections === at)
      .map(({ s, i }): [string, string, (f: DatabaseFigures) => string] => [
        `Search page p99 at ${at} concurrent, ${describe(s.query)}`,
        `≤ ${TARGETS.searchPageP99} ms`,
        (f) => verdict(f.searchPage[i]!.result.p99, TARGETS.searchPageP99, "ms") + failures(f.searchPage[i]!.result),
      ]),
    ...first.autoSuggest
      .map((s, i) => ({ s, i }))
      .filter(({ s }) => s.connections === at)
      .map(({ s, i }): [string, string, (f: DatabaseFigures) => string] => [
        `Auto-suggest p95 at ${at} concurrent, "${s.term}"`,
        `≤ ${TARGETS.autoSuggestP95} ms`,
        (f) => verdict(f.autoSuggest[i]!.result.p95, TARGETS.autoSuggestP95, "ms") + failures(f.autoSuggest[i]!.result),
      ]),
    [
      `Search page p99 at ${at} concurrent, long tail (each query once; misses)`,
      `≤ ${TARGETS.searchPageP99} ms`,
      (f) => {
        const { result } = longTailAt(f, "search page");
        return `${verdict(percentile(result.times.miss, 99), TARGETS.searchPageP99, "ms")} (${count(result.times.miss.length)} misses, ${count(result.times.hit.length)} hits${result.failed ? `, ${count(result.failed)} failed` : ""})`;
      },
    ],
    [
      `Auto-suggest p95 at ${at} concurrent, long tail (each prefix once)`,
      `≤ ${TARGETS.autoSuggestP95} ms`,
      (f) => {
        const { result } = longTailAt(f, "auto-suggest");
        return (
          verdict(percentile(result.times.none, 95), TARGETS.autoSuggestP95, "ms") +
          (result.failed ? ` (${count(result.failed)} failed)` : "")
        );
      },
    ],
  ];
  return [
    `| Figure | Target | ${all.map((f) => f.name).join(" | ")} |`,
    `|---|---|${all.map(() => "---|").join("")}`,
    ...rows.map(([name, target, cell]) => `| ${name} | ${target} | ${all.map(cell).join(" | ")} |`),
  ].join("\n");
}
