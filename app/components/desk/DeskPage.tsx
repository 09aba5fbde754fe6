import type { ReactNode } from "react";
import * as css from "./desk.css";

/**
 * A desk page's heading and content. Inside the desk, the desk's own bar (DeskChrome) frames it;
 * the door (entering a code, setting up a second factor) is still in the site's frame, so a band
 * says that this is the desk's.
 */
export function DeskPage({ title, door = false, children }: { title: string; door?: boolean; children: ReactNode }) {
  return (
    <div className={css.page}>
      {door ? (
        <div className={css.band}>
          <span className={css.crumb}>The desk</span>
        </div>
      ) : null}
      <h1 className={css.heading}>{title}</h1>
      {children}
    </div>
  );
}
