import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The directions ADR 063 fixed, checked on the source: the environment is read in
// server/config.ts alone, and a lower module never reaches a higher one, directly or through
// the modules it imports.

const ROOT = process.cwd();

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm;

/** The repository files a module imports (packages and Node built-ins left out). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3]!;
    const base = specifier.startsWith("~/")
      ? specifier.slice(2)
      : specifier.startsWith(".")
        ? path.posix.join(path.posix.dirname(file), specifier)
        : undefined;
    if (base === undefined) continue;
    const resolved = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) =>
      fs.statSync(path.join(ROOT, candidate), { throwIfNoEntry: false })?.isFile(),
    );
    if (resolved) found.push(resolved);
  }
  return found;
}

/** Every repository module a module reaches through its imports, each with the chain that reaches it. */
function reachable(start: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of importsOf(file)) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(file)!, next]);
      queue.push(next);
    }
  }
  return chains;
}

/** The chains by which modules under `from` reach a module matching `forbidden`. */
function upwardChains(from: string, forbidden: RegExp): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(from)) {
    for (const [reached, chain] of reachable(file)) if (forbidden.test(reached)) found.push(chain.join(" → "));
  }
  return found;
}

describe("layering", () => {
  it("reads the environment in server/config.ts alone", () => {
    const readers = ["app", "server", "shared"]
      .flatMap(sourceFiles)
      .filter((file) => file !== "server/config.ts" && fs.readFileSync(path.join(ROOT, file), "utf8").includes("process.env"));
    expect(readers).toEqual([]);
  });

  it("opens and migrates the database without reaching seeding", () => {
    expect(upwardChains("server/db", /^server\/seed\//)).toEqual([]);
  });

  it("indexes content for search without reaching the store", () => {
    expect(upwardChains("server/search", /^server\/store\//)).toEqual([]);
  });

  it("resolves a library's items without reaching the podcast pages", () => {
    expect(upwardChains("server/library", /^server\/(content\/)?podcasts\.ts$/)).toEqual([]);
  });
});
