import { useEffect, useRef, type ReactNode } from "react";
import * as css from "./forms.css";

export interface SummaryItem {
  /** The id of the field to jump to; absent for a problem with the form as a whole. */
  fieldId?: string;
  message: string;
}

/**
 * "There is a problem": every error, each linking to its field. Takes focus when it appears
 * (unless `takeFocus` is false, for a form that puts focus on a field instead; as an alert it
 * is announced either way), scrolled to the middle of the view so that neither it nor the
 * controls just above it end up under the sticky site header.
 */
export function ErrorSummary({
  items,
  takeFocus = true,
  formErrorId,
  formHelp,
}: {
  items: SummaryItem[];
  takeFocus?: boolean;
  /**
   * For a form right below the summary, which then does not repeat its own message: the id the
   * form's aria-describedby names, given to that message here, and what follows it (formHelp).
   */
  formErrorId?: string;
  formHelp?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const signature = items.map((i) => i.message).join("|");
  useEffect(() => {
    if (!signature || !takeFocus || !ref.current) return;
    ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: "center" });
  }, [signature, takeFocus]);
  if (items.length === 0) return null;
  const own = items.findIndex((i) => !i.fieldId);
  return (
    <div className={css.summary} role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {items.map((item, index) => (
          <li key={`${item.fieldId ?? "form"}:${item.message}`} id={index === own ? formErrorId : undefined}>
            {item.fieldId ? <a href={`#${item.fieldId}`}>{item.message}</a> : <p>{item.message}</p>}
            {index === own ? formHelp : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The form's first own message that the summary does not already show, for the form to show itself. */
export function unsummarised(errors: string[] | undefined, items: SummaryItem[]): string | undefined {
  return errors?.find((error) => !items.some((item) => !item.fieldId && item.message === error));
}
