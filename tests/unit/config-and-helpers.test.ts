import { describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config";
import { formatDuration, formatPublished } from "../../app/lib/format";
import { pickMonthIndex, pickYear } from "../../app/lib/issue-finder";
import { safeRedirectPath } from "../../app/lib/redirects";

describe("configuration", () => {
  it("has safe defaults for the embedded mode", () => {
    const c = parseConfig({});
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/data$/);
    expect(c.MAINTENANCE_MODE).toBe(false);
    expect(c.siteUrl).toBe("http://localhost:3000");
    // scrypt at OWASP's minimum cost unless told otherwise (the tests run cheaper, see vite.config.ts).
    expect(c.PASSWORD_SCRYPT_LOG2N).toBe(17);
    expect(() => parseConfig({ PASSWORD_SCRYPT_LOG2N: "10" })).toThrow(/PASSWORD_SCRYPT_LOG2N/);
  });

  it("reads switches and rejects bad values with a message naming the variable", () => {
    expect(parseConfig({ MAINTENANCE_MODE: "1", STREAM_UNLIMITED_LOADING: "true" })).toMatchObject({
      MAINTENANCE_MODE: true,
      STREAM_UNLIMITED_LOADING: true,
    });
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ MAINTENANCE_MODE: "maybe" })).toThrow(/MAINTENANCE_MODE/);
    expect(() => parseConfig({ DATABASE_SCHEMA: "x; drop table" })).toThrow(/DATABASE_SCHEMA/);
  });
});

describe("formats", () => {
  it("writes publication dates as MMMM DD, YYYY", () => {
    expect(formatPublished("2025-03-08")).toBe("March 08, 2025");
  });

  it("writes durations as h:mm:ss", () => {
    expect(formatDuration(3725)).toBe("1:02:05");
    expect(formatDuration(95)).toBe("1:35");
  });
});

describe("issue finder choices", () => {
  const years = [2025, 2024, 1956];
  it("selects the first year when none is given, and rejects unknown years", () => {
    expect(pickYear(years, null)).toBe(2025);
    expect(pickYear(years, "1956")).toBe(1956);
    expect(pickYear(years, "1900")).toBeUndefined();
    expect(pickYear(years, "20x5")).toBeUndefined();
  });

  it("selects the given month index, or the first", () => {
    expect(pickMonthIndex(6, "3")).toBe(3);
    expect(pickMonthIndex(6, "6")).toBe(0);
    expect(pickMonthIndex(6, null)).toBe(0);
    expect(pickMonthIndex(6, "-1")).toBe(0);
  });
});

describe("redirect targets", () => {
  it("accepts same-site paths only", () => {
    expect(safeRedirectPath("/2025/01/x?y=1")).toBe("/2025/01/x?y=1");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)", null, ""]) {
      expect(safeRedirectPath(bad)).toBe("/");
    }
  });
});
