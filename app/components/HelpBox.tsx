import { Link } from "@remix-run/react";
import { useRef, useState, type ReactNode } from "react";
import type { HelpBoxId } from "../../server/dismissals";
import { useRootData } from "../lib/root-data";
import { DismissForm } from "./DismissForm";
import * as css from "./help.css";

const CONTENT: Record<HelpBoxId, { headline: string; body: ReactNode }> = {
  "sign-in-benefits": {
    headline: "Get more from Meridian Review",
    body: (
      <>
        A free account lets you read more articles each month, save them to your library and follow topics.{" "}
        <Link to="/register">Create a free account</Link>.
      </>
    ),
  },
  "article-saves": {
    headline: "Save it for later",
    body: "Use Save on any article, video or podcast to keep it in your library, sorted into your own folders.",
  },
  firmographics: {
    headline: "Tell us about your work",
    body: "Add your industry, job title and company size below and we will recommend articles that fit. Every question is optional.",
  },
  "my-library": {
    headline: "Your library",
    body: "Everything you save, read, watch and share is kept here. Make folders to sort it your way.",
  },
  "insider-newsletter": {
    headline: "The Insider newsletter",
    body: "Subscribers get a weekly briefing from our editors. Switch it on below.",
  },
  "subscriber-search": {
    headline: "Search the whole archive",
    body: "As a subscriber you can search every article and magazine issue since 1956, and open every result in full.",
  },
};

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

/** A one-time help box (spec): headline, body, and "Ok, thanks", which closes it for good. */
export function HelpBox({ id }: { id: HelpBoxId }) {
  const root = useRootData();
  const [open, setOpen] = useState(true);
  const box = useRef<HTMLElement>(null);
  if (!open || root?.dismissed.includes(`help:${id}`)) return null;
  const { headline, body } = CONTENT[id];
  return (
    <aside ref={box} className={css.helpBox} id={`help-${id}`} aria-labelledby={`help-${id}-title`}>
      <h2 id={`help-${id}-title`} className={css.headline}>
        {headline}
      </h2>
      <p>{body}</p>
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
