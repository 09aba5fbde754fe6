import { useEffect, type RefObject } from "react";

/**
 * Closes a flyout on Escape and on a pointer press outside the control that holds it (the
 * panel's parent, so the toggle link keeps its own click). Spec: flyouts close on the close
 * button, an outside click or Escape.
 */
export function useDismiss(panel: RefObject<HTMLElement>, onClose: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    const onPointer = (e: PointerEvent) => panel.current && !panel.current.parentElement?.contains(e.target as Node) && onClose();
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [panel, onClose]);
}
