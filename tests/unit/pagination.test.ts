import { describe, expect, it } from "vitest";
import { lastPage, MAX_STREAM_LOADS, paginationItems, parsePaging } from "~/shared/pagination";

const labels = (current: number, last: number) =>
  paginationItems(current, last).map((i) => (i.kind === "gap" ? "..." : i.current ? `[${i.number}]` : String(i.number)));

describe("pagination bar", () => {
  it("shows every page up to 7 pages", () => {
    expect(labels(3, 7)).toEqual(["1", "2", "[3]", "4", "5", "6", "7"]);
  });

  it("collapses more than 7 pages with non-clickable gaps", () => {
    expect(labels(1, 20)).toEqual(["[1]", "2", "3", "...", "20"]);
    expect(labels(10, 20)).toEqual(["1", "...", "8", "9", "[10]", "11", "12", "...", "20"]);
    expect(labels(20, 20)).toEqual(["1", "...", "18", "19", "[20]"]);
  });

  it("shows a lone skipped page instead of a gap", () => {
    expect(labels(5, 20)).toEqual(["1", "2", "3", "4", "[5]", "6", "7", "...", "20"]);
  });

  it("marks the outer neighbours as wide-screen only so narrow screens show fewer numbers", () => {
    const wide = paginationItems(10, 20).filter((i) => i.kind === "page" && i.wideOnly);
    expect(wide.map((i) => (i.kind === "page" ? i.number : 0))).toEqual([8, 12]);
  });
});

describe("paging query values", () => {
  it("defaults to page 1 with one page loaded", () => {
    expect(parsePaging(new URLSearchParams(""), false)).toEqual({ page: 1, loaded: 1 });
  });

  it("caps loaded at the spec's two loads unless unlimited loading is on", () => {
    expect(parsePaging(new URLSearchParams("loaded=9"), false).loaded).toBe(MAX_STREAM_LOADS);
    expect(parsePaging(new URLSearchParams("loaded=9"), true).loaded).toBe(9);
  });

  it("ignores junk, negative, fractional and huge values", () => {
    for (const bad of ["abc", "-3", "0", "2.5", "1e9", "99999999999", ""]) {
      expect(parsePaging(new URLSearchParams(`page=${bad}&loaded=${bad}`), false)).toEqual({ page: 1, loaded: 1 });
    }
  });

  it("counts the last page of a list", () => {
    expect(lastPage(0, 10)).toBe(1);
    expect(lastPage(36, 10)).toBe(4);
    expect(lastPage(40, 8)).toBe(5);
  });
});
