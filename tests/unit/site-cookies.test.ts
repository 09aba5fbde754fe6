import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SITE_COOKIES } from "~/app/lib/privacy/cookies";

// The privacy policy lists every cookie the site sets (ADR 089). A cookie is made in app/ with
// Remix's createCookie, directly or through signedCookie (app/lib/http/cookies.server.ts), and
// client code sets none (no document.cookie): a cookie added or removed without the list
// changing fails here.

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("the cookies the privacy policy lists", () => {
  const files = sourceFiles("app").map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));

  it("are every cookie the site sets, and only those", () => {
    const set = new Set<string>();
    for (const { text } of files) for (const match of text.matchAll(/\b(?:signedCookie|createCookie)\(\s*"([^"]+)"/g)) set.add(match[1]!);
    expect(set.size).toBeGreaterThan(5);
    expect([...set].sort()).toEqual(SITE_COOKIES.map((c) => c.name).sort());
  });

  it("leave no cookie to scripts in the browser", () => {
    expect(files.filter(({ text }) => /document\.cookie|cookieStore/.test(text)).map((f) => f.file)).toEqual([]);
  });
});
