import { Link } from "@remix-run/react";
import { useState } from "react";
import { useRootData } from "../lib/root-data";
import { DismissForm } from "./DismissForm";
import * as css from "./help.css";

/** The subscriber onboarding message (spec): shown once, on whatever page a new subscriber opens next. */
export function OnboardingOverlay() {
  const root = useRootData();
  const [open, setOpen] = useState(true);
  if (!open || !root?.subscriber || !root.user || root.dismissed.includes("onboarding")) return null;
  return (
    <section className={css.onboarding} aria-labelledby="onboarding-title" data-onboarding="">
      <h2 id="onboarding-title">
        Welcome to your {root.subscriber.caption ?? root.subscriber.tier} subscription, {root.user.firstName}
      </h2>
      <ul>
        <li>Every article, video and podcast is open to you, with no limit.</li>
        <li>Gift an article to a colleague from the article page.</li>
        <li>
          Find every issue since 1956 in the <Link to="/magazine">magazine archive</Link>.
        </li>
      </ul>
      <DismissForm item="onboarding" className={css.close} onDismiss={() => setOpen(false)}>
        Ok, thanks
      </DismissForm>
    </section>
  );
}
