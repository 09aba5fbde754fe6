import { useEffect, useRef } from "react";
import type { FieldDiff } from "~/server/desk/articles";
import { DiffView } from "./DiffView";
import * as css from "./articles.css";

interface Conflict {
  message: string;
  diff: FieldDiff[];
}

/**
 * A save that came too late: who saved meanwhile, and where their version differs from the
 * editor's (read-only). The editor's own text stays in the form below, which now names the
 * current version, so saving again, having read this, replaces theirs.
 */
export function ConflictNotice({
  conflict,
  mine = "your version",
  what = "Your text is still in the form below.",
}: {
  conflict: Conflict;
  mine?: string;
  what?: string;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [conflict.message]);
  return (
    <section className={css.conflict} aria-labelledby="conflict-heading" tabIndex={-1} ref={ref}>
      <h2 id="conflict-heading">Someone else saved this article</h2>
      <p>
        <strong>{conflict.message}</strong> Nothing of yours was saved.
      </p>
      <p>
        Their version, read-only: where it differs from {mine}. {what} Saving again replaces their version with yours; copy in any of their
        changes you want to keep first.
      </p>
      <DiffView fields={conflict.diff} words={{ added: "Only in their version", removed: `Only in ${mine}` }} />
    </section>
  );
}
