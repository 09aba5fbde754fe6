import { useEffect, useRef } from "react";
import type { AddResult } from "./AddToCartForm";
import { AddedToCart } from "./AddedToCart";
import { AddFailure } from "./AddFailure";
import * as css from "./cart.css";
import * as controls from "~/app/components/controls.css";

/** The confirmation or the apology, as a modal dialog (Escape or its button closes it). */
export default function AddResultDialog({ result, onClose }: { result: AddResult; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const close = () => dialog.current?.close();
  const closeButton = (label: string) => (
    <button type="button" className={controls.linkButton} onClick={close}>
      {label}
    </button>
  );
  return (
    <dialog ref={dialog} className={css.dialog} aria-labelledby={"added" in result ? "added-title" : "add-failed-title"} onClose={onClose}>
      {"added" in result ? (
        <AddedToCart confirmation={result.added} headingLevel={2} after={closeButton("Continue shopping")} />
      ) : (
        <AddFailure failure={result.failure} headingLevel={2} after={closeButton("Close")} />
      )}
    </dialog>
  );
}
