import { describe, expect, it } from "vitest";
import { daysOf, lastDays, rangeBounds, readRange } from "~/server/desk/reports";
import { BAD_REPORT_RANGE, readReportRange } from "~/app/lib/desk/report-range.server";

// The reports' range of UTC days (ADR 090): read from the address, the last 30 days by default.

const NOW = new Date("2026-03-10T23:30:00.000Z");
const read = (query: string) => readReportRange(new URL(`https://site.test/desk/reports${query}`), NOW);

describe("the reports' days", () => {
  it("are the last 30 days, today included, unless asked", () => {
    expect(lastDays(NOW)).toEqual({ from: "2026-02-09", to: "2026-03-10" });
    expect(read("")).toEqual({ range: { from: "2026-02-09", to: "2026-03-10" }, problem: null, query: "from=2026-02-09&to=2026-03-10" });
    expect(read("?from=&to=").range).toEqual({ from: "2026-02-09", to: "2026-03-10" });
  });

  it("take a range as asked, either end alone, a day alone, and up to 366 days", () => {
    expect(read("?from=2026-01-01&to=2026-01-31")).toMatchObject({ range: { from: "2026-01-01", to: "2026-01-31" }, problem: null });
    expect(read("?from=2026-03-01").range).toEqual({ from: "2026-03-01", to: "2026-03-10" });
    expect(read("?to=2026-01-30").range).toEqual({ from: "2026-01-01", to: "2026-01-30" });
    expect(read("?from=2026-01-05&to=2026-01-05").range).toEqual({ from: "2026-01-05", to: "2026-01-05" });
    expect(readRange("2024-01-01", "2024-12-31")).toEqual({ from: "2024-01-01", to: "2024-12-31" });
  });

  it("fall back to the last 30 days, and say so, for dates that cannot be read, run backwards or span over 366 days", () => {
    for (const query of [
      "?from=yesterday",
      "?from=2026-02-30&to=2026-03-01",
      "?from=2026-03-05&to=2026-03-01",
      "?from=2024-01-01&to=2025-01-01",
      `?from=${"9".repeat(50)}`,
      "?to=2026-13-01",
    ])
      expect(read(query), query).toEqual({
        range: { from: "2026-02-09", to: "2026-03-10" },
        problem: BAD_REPORT_RANGE,
        query: "from=2026-02-09&to=2026-03-10",
      });
  });

  it("compare with the tables' times from the first midnight to the midnight after the last day, and list every day", () => {
    expect(rangeBounds({ from: "2026-02-27", to: "2026-03-01" })).toEqual({
      start: "2026-02-27T00:00:00.000Z",
      end: "2026-03-02T00:00:00.000Z",
    });
    expect(daysOf({ from: "2026-02-27", to: "2026-03-01" })).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });
});
