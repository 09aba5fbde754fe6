import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type TableMetadata } from "kysely";
import { connect, migrate, type Database } from "~/server/db/connection";
import { declaredTables, type DeclaredColumn } from "~/tests/helpers/schema-declaration";
import { dialectName, isolatedConnection } from "~/tests/helpers/test-db";

const SCHEMA_FILE = path.resolve("server/db/schema.ts");

const declared = declaredTables(SCHEMA_FILE);
/** Full-text index structures of one engine (ADR 030): SQLite's FTS5 table and its shadow tables, PostgreSQL's tsvector columns and time slices. */
const engineIndexTable = (table: string) =>
  dialectName === "sqlite" ? /^search_(text|heading|title)(_|$)/.test(table) : table === "search_slice";
const ENGINE_INDEX_COLUMNS: Record<typeof dialectName, Set<string>> = {
  sqlite: new Set(),
  postgres: new Set(["search_document.title_words"]),
};
/** Declared tables only one engine's full-text index has: PostgreSQL's narrow match rows. */
const ENGINE_INDEX_TABLES: Record<typeof dialectName, Set<string>> = {
  sqlite: new Set(),
  postgres: new Set(["search_match"]),
};
const otherEngine = dialectName === "sqlite" ? "postgres" : "sqlite";
const otherEngineColumn = (where: string) => ENGINE_INDEX_COLUMNS[otherEngine].has(where);
const otherEngineTable = (table: string) => ENGINE_INDEX_TABLES[otherEngine].has(table);
let migrated: Map<string, TableMetadata>;
/** Views, which schema.ts declares as tables (`article`, ADR 076): their columns are checked, not their nullability. */
let views: Map<string, TableMetadata>;
/** "table.column" for each primary-key column. */
let primaryKeys: Set<string>;
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const connection = await isolatedConnection("schema", { empty: true });
  drop = connection.drop;
  db = connect(connection);
  await migrate(db);
  const tables = await db.introspection.getTables();
  migrated = new Map(tables.filter((t) => !t.isView && !engineIndexTable(t.name)).map((t) => [t.name, t]));
  views = new Map(tables.filter((t) => t.isView).map((t) => [t.name, t]));
  primaryKeys = dialectName === "sqlite" ? await sqlitePrimaryKeys([...migrated.keys()]) : new Set();
});
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

describe(`server/db/schema.ts matches the migrated ${dialectName} database`, () => {
  it("declares every table the migrations create, and no other", () => {
    const missing = [...migrated.keys()]
      .filter((t) => !declared.has(t))
      .map((t) => `${t}: created by the migrations but not declared in DB`);
    const extra = [...declared.keys()]
      .filter((t) => !migrated.has(t) && !views.has(t) && !otherEngineTable(t))
      .map((t) => `${t}: declared in DB but no migration creates it`);
    expect([...missing, ...extra]).toEqual([]);
  });

  it("declares every column of each table, and no other", () => {
    const drift: string[] = [];
    for (const [table, columns] of declared) {
      const actual = migrated.get(table) ?? views.get(table);
      if (!actual) continue;
      const names = new Set(columns.map((c) => c.name));
      for (const column of actual.columns)
        if (!names.has(column.name)) drift.push(`${table}.${column.name}: in the database but not declared`);
      for (const name of names)
        if (!actual.columns.some((c) => c.name === name) && !otherEngineColumn(`${table}.${name}`))
          drift.push(`${table}.${name}: declared but not in the database`);
    }
    expect(drift).toEqual([]);
  });

  it("agrees with the database on which columns may be null and which get a default", () => {
    const drift: string[] = [];
    for (const [table, columns] of declared) {
      for (const column of columns) {
        const actual = migrated.get(table)?.columns.find((c) => c.name === column.name);
        const where = `${table}.${column.name}`;
        if (actual) drift.push(...nullabilityDrift(where, column, { ...actual, isNullable: actual.isNullable && !primaryKeys.has(where) }));
      }
    }
    expect(drift).toEqual([]);
  });
});

function nullabilityDrift(where: string, column: DeclaredColumn, actual: TableMetadata["columns"][number]): string[] {
  const drift: string[] = [];
  if (column.nullable && !actual.isNullable) drift.push(`${where}: declared "| null" but the column is NOT NULL`);
  if (!column.nullable && actual.isNullable) drift.push(`${where}: declared without "| null" but the column accepts NULL`);
  if (column.generated && !actual.hasDefaultValue && !actual.isAutoIncrementing)
    drift.push(`${where}: declared Generated<...> but the column has no default`);
  return drift;
}

/**
 * SQLite reports a primary-key column declared without NOT NULL as nullable (a legacy quirk:
 * PostgreSQL makes every primary-key column NOT NULL). The application always supplies the
 * key, so such columns count as NOT NULL here.
 */
async function sqlitePrimaryKeys(tables: string[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const table of tables) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0`.execute(db);
    for (const row of rows) keys.add(`${table}.${row.name}`);
  }
  return keys;
}
