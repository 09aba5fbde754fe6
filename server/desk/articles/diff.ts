import type { ArticleFields } from "~/shared/article-fields";
import type { DiffLine, FieldDiff } from "./types";

// A line diff from the longest common subsequence of two texts' lines: what an editor reads to
// see what a revision changed.

/** Cells of the LCS table at most (16 MB). */
const MAX_TABLE = 4_000_000;

/** The lines of `older` and `newer`, each marked as kept, removed or added, in reading order. */
export function lineDiff(older: string, newer: string): DiffLine[] {
  const a = older === "" ? [] : older.split("\n");
  const b = newer === "" ? [] : newer.split("\n");
  // Lines shared at both ends need no table: a long body changed in one paragraph stays cheap.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const lines: DiffLine[] = a.slice(0, start).map((text) => ({ kind: "same", text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ kind: "same", text }));
  // Past this size the table would take too much memory: the changed middle is shown whole, removed then added.
  if (midA.length * midB.length > MAX_TABLE) {
    for (const text of midA) lines.push({ kind: "removed", text });
    for (const text of midB) lines.push({ kind: "added", text });
    return [...lines, ...tail];
  }
  // common[i][j]: the length of the longest common subsequence of midA[i..] and midB[j..].
  const width = midB.length + 1;
  const common = new Uint32Array((midA.length + 1) * width);
  for (let i = midA.length - 1; i >= 0; i--)
    for (let j = midB.length - 1; j >= 0; j--)
      common[i * width + j] =
        midA[i] === midB[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);

  let i = 0;
  let j = 0;
  while (i < midA.length && j < midB.length) {
    if (midA[i] === midB[j]) {
      lines.push({ kind: "same", text: midA[i]! });
      i++;
      j++;
    } else if (common[(i + 1) * width + j]! >= common[i * width + j + 1]!) {
      lines.push({ kind: "removed", text: midA[i++]! });
    } else {
      lines.push({ kind: "added", text: midB[j++]! });
    }
  }
  while (i < midA.length) lines.push({ kind: "removed", text: midA[i++]! });
  while (j < midB.length) lines.push({ kind: "added", text: midB[j++]! });
  return [...lines, ...tail];
}

const DIFFED = [
  "status",
  "title",
  "dek",
  "subDek",
  "summary",
  "body",
  "slug",
  "authors",
  "topics",
  "contentType",
  "tier",
  "series",
  "seriesTitle",
  "seriesPart",
  "streams",
  "published",
] as const satisfies readonly (keyof ArticleFields | "status")[];

type Side = { fields: ArticleFields; status: string };

/** A field's value as lines: a list one item a line, nothing as no line. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join("\n");
  return String(value);
}

/** Every field of two revisions (the older first), with its line diff and whether it changed. */
export function diffRevision(older: Side, newer: Side): FieldDiff[] {
  return DIFFED.map((field) => {
    const before = asText(field === "status" ? older.status : older.fields[field]);
    const after = asText(field === "status" ? newer.status : newer.fields[field]);
    return { field, changed: before !== after, lines: lineDiff(before, after) };
  });
}
