import { describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config";
import { formatDuration, formatPublished, formatUsd } from "~/app/lib/content/format";
import { monthsOfIssue, pickIssueIndex, pickMonthIndex, pickYear } from "~/app/lib/content/issue-finder";
import { safeRedirectPath } from "~/app/lib/http/redirects";

describe("configuration", () => {
  it("has safe defaults for the embedded mode", () => {
    const c = parseConfig({});
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/data$/);
    expect(c.MAINTENANCE_MODE).toBe(false);
    expect(c.siteUrl).toBe("http://localhost:3000");
    expect(c.DATABASE_POOL_SIZE).toBe(20);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "500" })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("reads switches and rejects bad values with a message naming the variable", () => {
    expect(parseConfig({ MAINTENANCE_MODE: "1", STREAM_UNLIMITED_LOADING: "true" })).toMatchObject({
      MAINTENANCE_MODE: true,
      STREAM_UNLIMITED_LOADING: true,
    });
    expect(() => parseConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ MAINTENANCE_MODE: "maybe" })).toThrow(/MAINTENANCE_MODE/);
    expect(() => parseConfig({ DATABASE_SCHEMA: "x; drop table" })).toThrow(/DATABASE_SCHEMA/);
    expect([undefined, "", "0", "3"].map((n) => parseConfig(n === undefined ? {} : { JOBS_PROCESSES: n }).JOBS_PROCESSES)).toEqual([
      undefined,
      undefined,
      0,
      3,
    ]);
    expect(() => parseConfig({ JOBS_PROCESSES: "-1" })).toThrow(/JOBS_PROCESSES/);
  });

  it("runs the jobs at the lowest CPU priority unless told otherwise, and refuses a niceness outside 0 to 19", () => {
    expect(parseConfig({}).JOBS_NICENESS).toBe(19);
    expect(parseConfig({ JOBS_NICENESS: "" }).JOBS_NICENESS).toBe(19);
    expect(parseConfig({ JOBS_NICENESS: "5" }).JOBS_NICENESS).toBe(5);
    for (const bad of ["-1", "20", "low"]) expect(() => parseConfig({ JOBS_NICENESS: bad })).toThrow(/JOBS_NICENESS/);
  });

  it("links to the server's own address when SITE_URL is not given", () => {
    expect(parseConfig({ PORT: "3210" }).siteUrl).toBe("http://localhost:3210");
    expect(parseConfig({ PORT: "3210", HOST: "0.0.0.0" }).siteUrl).toBe("http://localhost:3210");
    expect(parseConfig({ PORT: "3210", HOST: "127.0.0.1" }).siteUrl).toBe("http://127.0.0.1:3210");
    expect(parseConfig({ PORT: "3210", HOST: "::1" }).siteUrl).toBe("http://[::1]:3210");
    expect(parseConfig({ PORT: "80", HOST: "meridian.internal" }).siteUrl).toBe("http://meridian.internal");
    expect(parseConfig({ PORT: "3210", SITE_URL: "" }).siteUrl).toBe("http://localhost:3210");
    expect(parseConfig({ PORT: "3210", SITE_URL: "https://www.meridian.example/" }).siteUrl).toBe("https://www.meridian.example");
    expect(() => parseConfig({ PORT: "0" })).toThrow(/PORT: 0 .* needs SITE_URL/);
    expect(() => parseConfig({ SITE_URL: "ftp://meridian.example" })).toThrow(/SITE_URL/);
  });
});

describe("formats", () => {
  it("writes publication dates as MMMM DD, YYYY", () => {
    expect(formatPublished("2025-03-08")).toBe("March 08, 2025");
    expect(formatPublished("1956-12-31T23:59:59.000Z")).toBe("December 31, 1956");
    expect(() => formatPublished("next week")).toThrow(RangeError);
    expect(() => formatPublished("2025-13-01")).toThrow(RangeError);
  });

  it("writes every day of the archive as Intl's en-US long date in UTC would", () => {
    const intl = new Intl.DateTimeFormat("en-US", { month: "long", day: "2-digit", year: "numeric", timeZone: "UTC" });
    const differing: string[] = [];
    for (let day = Date.UTC(1956, 0, 1); day <= Date.UTC(2026, 11, 31); day += 86_400_000) {
      const iso = new Date(day).toISOString();
      if (formatPublished(iso) !== intl.format(new Date(day))) differing.push(iso);
    }
    expect(differing).toEqual([]);
  });

  it("writes amounts in cents as US dollars, as Intl's en-US currency would", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(5)).toBe("$0.05");
    expect(formatUsd(123_456)).toBe("$1,234.56");
    expect(formatUsd(100_000_000)).toBe("$1,000,000.00");
    expect(formatUsd(-250)).toBe("-$2.50");
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    for (const cents of [1, 99, 100, 999, 1_000, 99_999, 100_000, 123_456_789, -1, -123_456])
      expect(formatUsd(cents)).toBe(intl.format(cents / 100));
  });

  it("writes durations as h:mm:ss, under an hour and under a minute too", () => {
    expect(formatDuration(3725)).toBe("1:02:05");
    expect(formatDuration(36_000)).toBe("10:00:00");
    expect(formatDuration(95)).toBe("0:01:35");
    expect(formatDuration(29)).toBe("0:00:29");
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

  it("reads a month chosen from another year's list in that list, and finds the same months in the year chosen", () => {
    const bimonthly = ["January–February", "March–April", "May–June", "July–August", "September–October", "November–December"].map(
      (issueMonth) => ({ issueMonth }),
    );
    const monthly = [
      "January",
      "February",
      "March",
      "April",
      "May",
      "June",
      "July–August",
      "September",
      "October",
      "November–December",
    ].map((issueMonth) => ({ issueMonth }));
    expect(monthsOfIssue("July–August")).toEqual([7, 8]);
    expect(monthsOfIssue("May")).toEqual([5]);
    expect(monthsOfIssue("Smarch")).toEqual([]);
    // Index 4 of the bimonthly list is September–October: the monthly year's September, not its May.
    expect(pickIssueIndex(monthly, bimonthly, "4")).toBe(7);
    expect(pickIssueIndex(bimonthly, monthly, "7")).toBe(4);
    expect(pickIssueIndex(bimonthly, monthly, "6")).toBe(3);
    // A year without that issue gives the nearest one.
    const lostMarch = bimonthly.filter((i) => i.issueMonth !== "March–April");
    expect(pickIssueIndex(lostMarch, bimonthly, "1")).toBe(0);
    // The same year on screen: the index as it is.
    expect(pickIssueIndex(monthly, undefined, "4")).toBe(4);
    expect(pickIssueIndex(monthly, bimonthly, "x")).toBe(0);
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
