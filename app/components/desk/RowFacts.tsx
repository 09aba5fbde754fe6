import type { ReactNode } from "react";
import * as css from "./desk.css";

/** Facts about a row beside its form: the version saved since the form was opened, or who saved it last. */
export function RowFacts({ title, facts, children }: { title: string; facts: [string, ReactNode][]; children?: ReactNode }) {
  return (
    <aside className={css.facts} aria-labelledby="row-facts-heading">
      <h2 id="row-facts-heading">{title}</h2>
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
