import { Link, useMatches } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useRootData } from "~/app/lib/http/root-data";
import { DismissForm } from "./DismissForm";
import * as css from "./help.css";

const ARTICLE_ROUTE = "routes/$year.$month.$slug";

/**
 * The persistent banner for readers who do not subscribe, on article pages. Without JS it is a
 * block at the foot of the window that its close button dismisses for good. With JS it waits
 * until the reader reaches the article body, and also closes (for this page) on Escape.
 */
export function PersistentBanner() {
  const root = useRootData();
  const onArticle = useMatches().some((m) => m.id === ARTICLE_ROUTE);
  const eligible = onArticle && !root?.subscriber && !root?.dismissed.includes("persistent-banner");
  const [state, setState] = useState<"server" | "waiting" | "open" | "closed">("server");

  useEffect(() => {
    if (!eligible) return;
    const body = document.getElementById("article-body");
    if (!body) return setState("open");
    setState("waiting");
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting || e.boundingClientRect.top < 0)) {
        setState((s) => (s === "waiting" ? "open" : s));
        observer.disconnect();
      }
    });
    observer.observe(body);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setState("closed");
    };
    window.addEventListener("keydown", onKey);
    return () => {
      observer.disconnect();
      window.removeEventListener("keydown", onKey);
    };
  }, [eligible]);

  if (!eligible || state === "closed") return null;
  return (
    <aside className={css.banner} aria-label="Subscribe" data-persistent-banner="" data-waiting={state === "waiting" ? "" : undefined}>
      <p>
        Read without limits: subscribe to Meridian Review from $12.00 a month.{" "}
        <Link className={css.bannerLink} to="/subscriptions?ab=persistent-banner">
          See the plans
        </Link>
      </p>
      <DismissForm item="persistent-banner" className={css.bannerClose} onDismiss={() => setState("closed")}>
        Close<span className="visually-hidden"> the subscription banner</span>
      </DismissForm>
    </aside>
  );
}
