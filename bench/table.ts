// How the benchmarks print: columns padded to their widest cell, milliseconds to a sensible precision.

/** Milliseconds: two decimals under 10, one under 100, none above; a dash for no figure. */
export const ms = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));

/** Columns padded to their widest cell; the first `left` left-aligned, the rest right-aligned. */
export function table(rows: string[][], left = 1): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
