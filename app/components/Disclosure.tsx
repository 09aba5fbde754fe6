import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { useDismiss } from "./useDismiss";

interface DisclosureProps {
  /** The panel's id, for the button's aria-controls. */
  id: string;
  /** What the button shows. */
  label: ReactNode;
  /** The button's accessible name, where its text alone would not say enough. */
  ariaLabel?: string;
  className: { holder: string; button: string; panel: string };
  children: ReactNode;
}

/**
 * A button that shows and hides the panel under it (the WAI-ARIA disclosure pattern), for the
 * header's menus once JS runs; without JS the header shows links instead. The panel closes on
 * Escape (focus back on the button), on a press outside it, and on every navigation.
 */
export function Disclosure({ id, label, ariaLabel, className, children }: DisclosureProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const { key } = useLocation();
  useEffect(() => setOpen(false), [key]);
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  return (
    <span className={className.holder}>
      <button
        ref={button}
        type="button"
        className={className.button}
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      <div ref={panel} id={id} className={className.panel} hidden={!open}>
        {children}
      </div>
      {open ? <DismissOnOutsideOrEscape panel={panel} onClose={close} /> : null}
    </span>
  );
}

function DismissOnOutsideOrEscape({ panel, onClose }: { panel: RefObject<HTMLElement>; onClose: () => void }) {
  useDismiss(panel, onClose);
  return null;
}
