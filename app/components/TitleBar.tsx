import { useEffect, useRef } from "react";
import * as css from "./article.css";
import { useHydrated } from "./useHydrated";

/**
 * The article title bar that slides in after 300 px of scrolling. It repeats the headline for the
 * eye only: it is rendered once JS runs (a text browser, which shows every element, never gets
 * it) and hidden from screen readers, which have the headline already.
 */
export function TitleBar({ title }: { title: string }) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const update = () => bar.toggleAttribute("data-visible", window.scrollY > 300);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [hydrated]);
  if (!hydrated) return null;
  return (
    <div ref={ref} className={css.titleBar} aria-hidden="true">
      {title}
    </div>
  );
}
