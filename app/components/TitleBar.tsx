import { useEffect, useRef } from "react";
import * as css from "./article.css";

/** The article title bar that slides in after 300 px of scrolling (JS only; without JS it stays hidden). */
export function TitleBar({ title }: { title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const update = () => bar.toggleAttribute("data-visible", window.scrollY > 300);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  return (
    <div ref={ref} className={css.titleBar} aria-hidden="true">
      {title}
    </div>
  );
}
