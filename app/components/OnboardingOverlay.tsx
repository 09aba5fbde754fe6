import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useRootData } from "~/app/lib/http/root-data";
import { DismissForm } from "./DismissForm";
import * as css from "./help.css";
import { useHydrated } from "./useHydrated";

/** What the onboarding message tells a new subscriber: the overlay, and the page /welcome. */
export function OnboardingMessage({ headingLevel: Heading = "h2" }: { headingLevel?: "h1" | "h2" }) {
  const root = useRootData();
  if (!root?.subscriber || !root.user) return null;
  return (
    <>
      <Heading id="onboarding-title">
        Welcome to your {root.subscriber.caption ?? root.subscriber.tier} subscription, {root.user.firstName}
      </Heading>
      <ul>
        <li>Every article, video and podcast is open to you, with no limit.</li>
        <li>Gift an article to a colleague from the article page.</li>
        <li>
          Find every issue since 1956 in the <Link to="/magazine">magazine archive</Link>.
        </li>
      </ul>
    </>
  );
}

/**
 * The subscriber onboarding message (spec), which the layout shows where `onboardingDue` says it
 * is due: once, on whatever page a new subscriber opens next. With JS it is a modal dialog;
 * without, a message at the top of the page. "Ok, thanks", or Escape in the dialog, records that
 * it was seen, and focus goes on to the page's content.
 */
export function OnboardingOverlay() {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(true);
  if (!open) return null;
  const done = () => {
    setOpen(false);
    document.getElementById("main")?.focus();
  };
  const dismiss = (
    <DismissForm item="onboarding" className={css.close} onDismiss={done}>
      Ok, thanks
    </DismissForm>
  );
  if (!hydrated) {
    return (
      <section className={css.onboarding} aria-labelledby="onboarding-title" data-onboarding="">
        <OnboardingMessage />
        {dismiss}
      </section>
    );
  }
  return (
    <OnboardingDialog>
      <OnboardingMessage />
      {dismiss}
    </OnboardingDialog>
  );
}

function OnboardingDialog({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={css.onboardingDialog}
      aria-labelledby="onboarding-title"
      data-onboarding=""
      // Escape closes the dialog (the browser fires no cancel event without a user gesture
      // since it opened): that says "Ok, thanks" too, so the message is not shown on the next page.
      onClose={() => dialog.current?.querySelector("form")?.requestSubmit()}
    >
      {children}
    </dialog>
  );
}
