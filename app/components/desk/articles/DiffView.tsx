import type { DiffLine, FieldDiff } from "~/server/desk/articles";
import { FIELD_LABELS } from "./labels";
import * as css from "./articles.css";

/** Unchanged lines kept either side of a change; longer runs fold into a count. */
const CONTEXT = 2;

type Row = DiffLine | { kind: "fold"; count: number };

function folded(lines: DiffLine[]): Row[] {
  const near = lines.map((_, i) => lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.kind !== "same"));
  const rows: Row[] = [];
  let hidden = 0;
  lines.forEach((line, i) => {
    if (line.kind === "same" && !near[i]) {
      hidden++;
      return;
    }
    if (hidden > 0) rows.push({ kind: "fold", count: hidden });
    hidden = 0;
    rows.push(line);
  });
  if (hidden > 0) rows.push({ kind: "fold", count: hidden });
  return rows;
}

interface Words {
  /** What a line only in the newer side is called ("Added", "Only in their version"). */
  added: string;
  removed: string;
}

/**
 * The fields that differ, each as a line diff: a line only in the newer side is <ins> with "+",
 * one only in the older is <del> with "−", each with its words for screen readers, so the marks
 * never rest on colour alone.
 */
export function DiffView({ fields, words, headingLevel = 3 }: { fields: FieldDiff[]; words: Words; headingLevel?: 2 | 3 }) {
  const changed = fields.filter((f) => f.changed);
  if (changed.length === 0) return <p className={css.unchanged}>No field differs.</p>;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      <p className={css.legend}>
        <span>
          <strong aria-hidden="true">+</strong> {words.added}
        </span>
        <span>
          <strong aria-hidden="true">−</strong> {words.removed}
        </span>
      </p>
      {changed.map((field) => (
        <section key={field.field} className={css.diffField} aria-label={FIELD_LABELS[field.field]}>
          <Heading>{FIELD_LABELS[field.field]}</Heading>
          <ul className={css.diff}>
            {folded(field.lines).map((row, i) =>
              row.kind === "fold" ? (
                <li key={i} className={css.line.same}>
                  <span className={css.sign} aria-hidden="true">
                    ⋯
                  </span>
                  <span>
                    {row.count} unchanged {row.count === 1 ? "line" : "lines"}
                  </span>
                </li>
              ) : (
                <li key={i} className={css.line[row.kind]}>
                  <span className={css.sign} aria-hidden="true">
                    {row.kind === "added" ? "+" : row.kind === "removed" ? "−" : ""}
                  </span>
                  {row.kind === "added" ? (
                    <ins>
                      <span className="visually-hidden">{words.added}: </span>
                      {row.text || " "}
                    </ins>
                  ) : row.kind === "removed" ? (
                    <del>
                      <span className="visually-hidden">{words.removed}: </span>
                      {row.text || " "}
                    </del>
                  ) : (
                    <span>{row.text || " "}</span>
                  )}
                </li>
              ),
            )}
          </ul>
        </section>
      ))}
    </>
  );
}
