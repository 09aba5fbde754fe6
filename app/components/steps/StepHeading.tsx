import { Link } from "@remix-run/react";
import * as css from "./steps.css";

/** A step of a purchase: its name, and its own address when a shopper may go back to it. */
export interface Step {
  name: string;
  to: string | null;
}

/**
 * A purchase page's heading: the step bar, then the title under "Step 2 of 4", which is part of
 * the heading ("Step 2 of 4: Shipping and payment"), so a screen reader announces where the
 * buyer is as the page opens. Steps already done link back, until the last step is reached.
 */
export function StepHeading({ steps, step, title, label }: { steps: readonly Step[]; step: number; title: string; label: string }) {
  const finished = step === steps.length;
  return (
    <div className={css.heading}>
      <ol className={css.steps} aria-label={label}>
        {steps.map((s, i) => {
          const number = i + 1;
          const state = number < step ? "done" : number === step ? "current" : "next";
          const name = (
            <>
              <span className={css.marker} aria-hidden="true">
                {state === "done" ? "✓" : number}
              </span>
              <span className={state === "current" ? undefined : css.nameAside}>
                {s.name}
                {state === "done" ? <span className="visually-hidden"> (done)</span> : null}
              </span>
            </>
          );
          return (
            <li key={s.name} className={css.step} data-state={state} aria-current={state === "current" ? "step" : undefined}>
              {state === "done" && !finished && s.to ? (
                <Link to={s.to} className={css.stepLink}>
                  {name}
                </Link>
              ) : (
                name
              )}
            </li>
          );
        })}
      </ol>
      <h1 className={css.title}>
        <span className={css.caption}>
          Step {step} of {steps.length}
          <span className="visually-hidden">: </span>
        </span>
        {title}
      </h1>
    </div>
  );
}
