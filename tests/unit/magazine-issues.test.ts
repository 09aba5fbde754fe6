import { describe, expect, it } from "vitest";
import { issueCode, issueMonthLabel, nextIssueSlot } from "~/server/content/archive-calendar";
import { issueEditSchema, issuePatchBodySchema, isIssueCode } from "~/shared/issue-fields";
import { issueArtKey, issueCodeOfArtKey, issueCoverPath } from "~/shared/urls";

// The rules an issue edited at the desk follows (ADR 082): its months as the calendar names them,
// the slot a new one starts at, the drawn cover's address by version, and the schema's refusals.

describe("an issue's months", () => {
  it("are its slot in that year's calendar, or its first month alone where no slot starts", () => {
    expect(issueMonthLabel(2026, 1)).toBe("January–February");
    expect(issueMonthLabel(1995, 7)).toBe("July–August");
    expect(issueMonthLabel(1995, 3)).toBe("March");
    expect(issueMonthLabel(2026, 2)).toBe("February");
  });

  it("after an issue come the year's next slot, then the next year's first", () => {
    expect(nextIssueSlot(2025, 11)).toEqual({ year: 2026, month: 1 });
    expect(nextIssueSlot(2025, 3)).toEqual({ year: 2025, month: 5 });
    expect(nextIssueSlot(1995, 7)).toEqual({ year: 1995, month: 9 });
    expect(nextIssueSlot(2019, 11)).toEqual({ year: 2020, month: 1 });
    expect(issueCode(2026, 1)).toBe("BR2601");
  });
});

describe("the drawn cover's address", () => {
  it("is the code's for a seeded issue, and names the version after a save, back to the code", () => {
    expect(issueCoverPath(issueArtKey({ code: "BR2511", version: 1 }))).toBe("/art/issue/BR2511.svg");
    expect(issueCoverPath(issueArtKey({ code: "7403", version: 12 }))).toBe("/art/issue/7403-v12.svg");
    expect(issueCodeOfArtKey("7403-v12")).toBe("7403");
    expect(issueCodeOfArtKey("BR2511")).toBe("BR2511");
    for (const key of ["BR25", "7403-v0", "7403-v", "x7403", "7403-v1-v2", "../7403"]) expect(issueCodeOfArtKey(key), key).toBeUndefined();
  });
});

describe("the issue's schema", () => {
  const form = { code: "br2601", year: 2026, month: 1, title: "T", summary: "S", version: 3 };

  it("takes a code in any case, and features as a title, an article or both", () => {
    const parsed = issueEditSchema.parse({ ...form, features: [{ title: "A" }, { article: "/2024/05/x" }, { title: "B", article: "x" }] });
    expect(parsed.code).toBe("BR2601");
    expect(isIssueCode(parsed.code)).toBe(true);
    expect(parsed.features).toHaveLength(3);
  });

  it("refuses a feature with neither, a year or month out of range, and 41 features, each with its field's message", () => {
    const errors = (value: unknown) =>
      issueEditSchema.safeParse(value).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];
    expect(errors({ ...form, features: [{ title: "A" }, {}] })).toEqual([
      ["features.1.title", "Give the feature a title of up to 300 characters, or link an article (its title is used)."],
    ]);
    expect(errors({ ...form, year: 1955, month: 13 }).map(([path]) => path)).toEqual(["year", "month"]);
    expect(errors({ ...form, features: Array.from({ length: 41 }, () => ({ title: "A" })) })[0]?.[0]).toBe("features");
    expect(errors({ ...form, code: "BR26011" })[0]?.[0]).toBe("code");
  });

  it("takes a PATCH of any field with the version read, and nothing the API does not know", () => {
    expect(issuePatchBodySchema.safeParse({ version: 1, title: "New" }).success).toBe(true);
    expect(issuePatchBodySchema.safeParse({ title: "New" }).success).toBe(false);
    expect(issuePatchBodySchema.safeParse({ version: 1, cover: "x" }).success).toBe(false);
    expect(issuePatchBodySchema.safeParse({ version: 1, features: [{ title: "A", url: "x" }] }).success).toBe(false);
  });
});
