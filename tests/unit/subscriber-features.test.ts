import { describe, expect, it } from "vitest";
import { noteErrorField, noteSchema } from "~/app/lib/library/notes-form";
import { articleIdFromReprint, chartPath, reprintPath } from "~/app/lib/store/downloads";
import { addAnnotation, MAX_NOTE_LENGTH, MAX_QUOTE_LENGTH, MAX_PARAGRAPH } from "~/server/library/annotations";
import type { Database } from "~/server/db/connection";

describe("note form", () => {
  // Each of these is refused before the database is asked anything.
  const noDatabase = {} as Database;
  const cases = [
    [{ paragraph: -1, quote: "", note: "x" }, "paragraph"],
    [{ paragraph: MAX_PARAGRAPH + 1, quote: "", note: "x" }, "paragraph"],
    [{ paragraph: 0, quote: "", note: "  " }, "note"],
    [{ paragraph: 0, quote: "", note: "x".repeat(MAX_NOTE_LENGTH + 1) }, "note"],
    [{ paragraph: 0, quote: "q".repeat(MAX_QUOTE_LENGTH + 1), note: "x" }, "quote"],
    [{ paragraph: 0, quote: "", note: "x", articleId: Number.NaN }, undefined],
  ] as const;

  it.each(cases)("shows the annotations module's message for %j beside the right field", async (input, field) => {
    const result = await addAnnotation(noDatabase, { userId: "u", articleId: 1, ...input });
    if (result.ok) throw new Error("stored");
    expect(noteErrorField(result.error)).toBe(field);
  });

  it("accepts only a paragraph of the article", () => {
    const schema = noteSchema(3);
    expect(schema.safeParse({ paragraph: "2" }).success).toBe(true);
    for (const paragraph of ["3", "-1", "1.5", "abc", undefined])
      expect(schema.safeParse({ paragraph }).success, String(paragraph)).toBe(false);
  });
});

describe("download addresses", () => {
  it("maps a reprint id to its article and back, and nothing else", () => {
    expect(articleIdFromReprint(reprintPath(42).split("/").pop()!)).toBe(42);
    for (const id of ["R0", "R01", "42", "r42", "R42x", "R99999999999"]) expect(articleIdFromReprint(id), id).toBeUndefined();
  });

  it("escapes a chart address's parts, and gives its PNG the same address with .png", () => {
    expect(chartPath("a/b", "slug")).toBe("/visual-library/download/a%2Fb/slug");
    expect(chartPath("a/b", "slug", "png")).toBe("/visual-library/download/a%2Fb/slug.png");
  });
});
