import type { Compilable, CompiledQuery } from "kysely";
import type { Database } from "./connection";
import { prepared } from "./postgres-pool";

/**
 * A statement that nearly every request runs, built and compiled once per database instead of
 * per request (building and compiling the signed-in reader's took 0.3–0.5 ms of CPU, issue 40),
 * and kept prepared on PostgreSQL (ADR 095). `build` is given a stand-in for each of the
 * request's values; a run binds the request's own values in their places. A stand-in begins with
 * U+0000, which no bound value of ours holds: PostgreSQL refuses it in text.
 */
export function compiledOnce<Name extends string, R>(
  names: readonly Name[],
  build: (db: Database, standIns: Readonly<Record<Name, string>>) => Compilable<R>,
): (db: Database, values: Readonly<Record<Name, unknown>>) => Promise<R[]> {
  const standIns = Object.fromEntries(names.map((name) => [name, `\u0000${name}`])) as Record<Name, string>;
  const byStandIn = new Map<unknown, Name>(names.map((name) => [standIns[name], name]));
  const statements = new WeakMap<Database, CompiledQuery<R>>();
  return async (db, values) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = prepared(build(db, standIns));
      statements.set(db, statement);
    }
    const parameters = statement.parameters.map((value) => {
      const name = byStandIn.get(value);
      return name === undefined ? value : values[name];
    });
    return (await db.executeQuery<R>({ ...statement, parameters })).rows;
  };
}
