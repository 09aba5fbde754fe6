import { isDeepStrictEqual } from "node:util";
import { startBuiltServer } from "~/tests/helpers/server";
import { createTemplate } from "~/tests/helpers/template-db";
import { isolatedConnection } from "~/tests/helpers/test-db";
import { actionTargets } from "./actions";
import { apiOperations, fuzzOperation, loadApiDocument } from "./api";
import { fuzzTarget, type Tally } from "./engine";
import { integrity, ownerData, prepareWorld } from "./world";

// npm run fuzz: the long run (run `npm run build` first; this builds nothing). Starts the built
// server on a fresh database (PostgreSQL when DATABASE_URL is set), posts FUZZ_RUNS bodies
// (default 1,000) to every action and makes as many calls to every operation of the service
// API's document, prints the answers by status class per action or operation, and exits
// non-zero on any answer of 500 or above, on an API answer its document does not list, on a
// change to reader A's data, or on a damaged SQLite file. FUZZ_SEED repeats a run;
// FUZZ_ONLY=<part of a name> narrows it to some actions or operations.

const runs = Number(process.env.FUZZ_RUNS ?? 1000);
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const only = process.env.FUZZ_ONLY?.toLowerCase();

const template = await createTemplate();
const database = await isolatedConnection("fuzz");
const server = await startBuiltServer({ RATE_LIMIT_PER_IP: "1000000", RATE_LIMIT_PER_ACCOUNT: "1000000" }, "production", database);
let failed = false;
try {
  console.log(`fuzz: ${database.databaseUrl ? "PostgreSQL" : "SQLite"}, ${runs} bodies per action, seed ${seed}`);
  const world = await prepareWorld(server.url, database);
  const before = await ownerData(world);
  const tallies: Tally[] = [];
  const started = Date.now();
  const report = (tally: Tally) => {
    tallies.push(tally);
    const a = tally.answers;
    console.log(
      `${tally.target.padEnd(26)} bodies ${String(tally.bodies).padStart(6)}   2xx ${String(a["2xx"]).padStart(6)}  3xx ${String(a["3xx"]).padStart(6)}  4xx ${String(a["4xx"]).padStart(6)}  5xx ${String(a["5xx"]).padStart(4)}  closed early (oversized) ${a.closed}`,
    );
    const ordered = [...tally.failures].sort((a, b) => Number(a.crossSite) - Number(b.crossSite));
    for (const f of ordered.slice(0, 3))
      console.log(`  ${f.statuses.join(",")} (FUZZ_SEED=${seed} FUZZ_ONLY="${tally.target}" case ${f.index}): ${f.example}`);
  };
  const chosen = (name: string) => !only || name.toLowerCase().includes(only);
  for (const [i, target] of actionTargets(world).entries()) {
    if (chosen(target.name)) report(await fuzzTarget(world, target, { runs, seed: seed + i }));
  }
  for (const [i, operation] of apiOperations(await loadApiDocument(server.url)).entries()) {
    if (chosen(operation.name)) report(await fuzzOperation(world, operation, { runs, seed: seed + 1000 + i }));
  }
  const total = (k: keyof Tally["answers"]) => tallies.reduce((n, t) => n + t.answers[k], 0);
  console.log(
    `all actions: ${tallies.reduce((n, t) => n + t.bodies, 0)} bodies, answers 2xx ${total("2xx")} 3xx ${total("3xx")} 4xx ${total("4xx")} 5xx ${total("5xx")} closed early (oversized) ${total("closed")} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  const after = await ownerData(world);
  const unchanged = isDeepStrictEqual(after, before);
  for (const key of Object.keys(before)) {
    if (!isDeepStrictEqual(after[key], before[key]))
      console.log(`reader A's ${key} changed:\n  before ${JSON.stringify(before[key])}\n  after  ${JSON.stringify(after[key])}`);
  }
  const check = await integrity(world);
  console.log(`reader A's data unchanged: ${unchanged ? "yes" : "NO"}; database integrity: ${check}`);
  const failures = tallies.reduce((n, t) => n + t.failures.length, 0);
  failed = failures > 0 || !unchanged || check !== "ok";
  if (total("5xx") > 0)
    console.log(
      `server errors:\n${[
        ...new Set(
          server
            .errors()
            .split("\n")
            .filter((l) => /Error|error:/.test(l)),
        ),
      ].join("\n")}`,
    );
} finally {
  await server.stop();
  await database.drop();
  await template.remove();
}
process.exit(failed ? 1 : 0);
