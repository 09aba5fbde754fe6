import { useRef, useState, type ReactNode } from "react";
import type { HelpBoxId } from "~/server/readers/dismissals";
import { useRootData } from "~/app/lib/http/root-data";
import { DismissForm } from "./DismissForm";
import * as css from "./help.css";

/**
 * Where focus goes when a help box closes under it: what followed the box, or failing that the
 * page's heading, made focusable for the moment if it is not.
 */
function focusAfter(box: HTMLElement) {
  const next = box.nextElementSibling ?? document.querySelector("main h1");
  if (!(next instanceof HTMLElement)) return;
  if (next.tabIndex < 0 && !next.hasAttribute("tabindex")) {
    next.setAttribute("tabindex", "-1");
    next.addEventListener("blur", () => next.removeAttribute("tabindex"), { once: true });
  }
  next.focus({ preventScroll: true });
}

/**
 * A one-time help box (spec): headline, body, and "Ok, thanks", which closes it for good. Each
 * page holds its own box's words, so no page's script carries every box's.
 */
export function HelpBox({ id, headline, children }: { id: HelpBoxId; headline: string; children: ReactNode }) {
  const root = useRootData();
  const [open, setOpen] = useState(true);
  const box = useRef<HTMLElement>(null);
  if (!open || root?.dismissed.includes(`help:${id}`)) return null;
  return (
    <aside ref={box} className={css.helpBox} id={`help-${id}`} aria-labelledby={`help-${id}-title`}>
      <h2 id={`help-${id}-title`} className={css.headline}>
        {headline}
      </h2>
      <p>{children}</p>
      <DismissForm
        item={`help:${id}`}
        className={css.close}
        onDismiss={() => {
          if (box.current) focusAfter(box.current);
          setOpen(false);
        }}
      >
        Ok, thanks
      </DismissForm>
    </aside>
  );
}
