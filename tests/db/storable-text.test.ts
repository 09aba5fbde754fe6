import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/connection";
import { isStorableText, storableText } from "~/server/db/storable-text";
import { seededTestDatabase } from "~/tests/helpers/test-db";

// Text PostgreSQL cannot store (a NUL byte, a lone surrogate) never reaches either database:
// every query's bound text is made storable first, so a lookup finds nothing instead of failing.

let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await seededTestDatabase());
});
afterAll(() => close());

describe("storable text", () => {
  it("tells storable text from text with a NUL byte or a lone surrogate, and mends the latter", () => {
    expect(["plain", "😀 emoji", "مرحبا", "e\u0301", ""].every(isStorableText)).toBe(true);
    expect(["a\u0000b", "\uD800", "x\uDC00", "\uDBFF\uDBFF"].some(isStorableText)).toBe(false);
    expect(storableText("a\u0000b\uD800c😀")).toBe("ab\uFFFDc😀");
  });

  it("lets a lookup with a NUL byte or a lone surrogate find nothing instead of failing", async () => {
    for (const email of ["\u0000", "someone\u0000@example.org", "\uD800@example.org"]) {
      expect(await db.selectFrom("app_user").select("id").where("email", "=", email).execute(), email).toEqual([]);
      expect(await db.selectFrom("app_user").select("id").where("email", "in", [email, "x\u0000"]).execute()).toEqual([]);
      expect((await sql<{ id: string }>`SELECT id FROM app_user WHERE email = ${email}`.execute(db)).rows).toEqual([]);
    }
  });

  it("stores text without its NUL bytes when a write gets past the form guard", async () => {
    await db
      .insertInto("dismissal")
      .values({ owner_key: "fuzz\u0000owner", item: "cookie-notice", dismissed_at: "2026-01-01T00:00:00.000Z" })
      .execute();
    expect(await db.selectFrom("dismissal").select("owner_key").where("owner_key", "=", "fuzzowner").execute()).toEqual([
      { owner_key: "fuzzowner" },
    ]);
  });
});
