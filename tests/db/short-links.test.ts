import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { isShortCode, newShortCode, shortCodeFor, shortLinkPath } from "~/server/share/short-links";
import { dialectName, seededTestDatabase } from "~/tests/helpers/test-db";

describe(`short links (${dialectName})`, () => {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await seededTestDatabase());
  });
  afterAll(async () => {
    await close?.();
  });

  it("draws random codes of 8 URL-safe characters", () => {
    const codes = new Set(Array.from({ length: 200 }, newShortCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  it("gives a path one code, which leads back to it", async () => {
    const code = await shortCodeFor(db, "/the-latest?page=2");
    expect(isShortCode(code)).toBe(true);
    expect(await shortCodeFor(db, "/the-latest?page=2")).toBe(code);
    expect(await shortCodeFor(db, "/the-latest?page=3")).not.toBe(code);
    expect(await shortLinkPath(db, code)).toBe("/the-latest?page=2");
  });

  it("draws again when a code is taken", async () => {
    const taken = await shortCodeFor(db, "/magazine", () => "AAAAAAAA");
    expect(taken).toBe("AAAAAAAA");
    const draws = ["AAAAAAAA", "AAAAAAAA", "BBBBBBBB"];
    expect(await shortCodeFor(db, "/podcasts", () => draws.shift()!)).toBe("BBBBBBBB");
    expect(draws).toEqual([]);
    expect(await shortLinkPath(db, "AAAAAAAA")).toBe("/magazine");
    expect(await shortLinkPath(db, "BBBBBBBB")).toBe("/podcasts");
  });

  it("gives up after a few taken codes rather than loop", async () => {
    await expect(shortCodeFor(db, "/search", () => "AAAAAAAA")).rejects.toThrow(/no free short code/);
    expect(await db.selectFrom("short_link").select("code").where("path", "=", "/search").execute()).toEqual([]);
  });

  it("gives concurrent calls for one path the same code", async () => {
    const codes = await Promise.all(Array.from({ length: 8 }, () => shortCodeFor(db, "/store")));
    expect(new Set(codes).size).toBe(1);
    expect(await db.selectFrom("short_link").select("code").where("path", "=", "/store").execute()).toHaveLength(1);
  });

  it("knows no unknown or malformed code", async () => {
    expect(await shortLinkPath(db, "ZZZZZZZZ")).toBeUndefined();
    expect(await shortLinkPath(db, "aaaaaaaa")).toBeUndefined();
    expect(await shortLinkPath(db, "../../etc")).toBeUndefined();
    expect(await shortLinkPath(db, "AAAAAAA")).toBeUndefined();
  });
});
