import { useId, type ReactNode } from "react";
import * as css from "./desk.css";

/**
 * Facts about a row beside its form: who saved it last, or (`stale`) the version saved since the
 * form was opened, set apart because saving again replaces it.
 */
export function RowFacts({
  title,
  facts,
  stale = false,
  children,
}: {
  title: string;
  facts: [string, ReactNode][];
  stale?: boolean;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <aside className={stale ? css.factsStale : css.facts} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <dl>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </aside>
  );
}
